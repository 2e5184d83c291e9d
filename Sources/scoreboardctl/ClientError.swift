/// Why `scoreboardctl` stops, and the exit status that tells it.
struct ClientError: Error, CustomStringConvertible {
  var message: String
  var exitStatus: ExitStatus

  init(_ message: String, exitStatus: ExitStatus) {
    self.message = message
    self.exitStatus = exitStatus
  }

  var description: String { message }
}
