/// How `scoreboardctl` ends, telling scripts what went wrong (codes from `sysexits.h`).
enum ExitStatus: Int32 {
  /// The request was carried out.
  case success = 0
  /// scoreboardd answered `error`: it refused or could not carry out the request.
  case refused = 1
  /// `EX_USAGE`: the command line was wrong.
  case usage = 64
  /// `EX_UNAVAILABLE`: the control socket cannot be reached.
  case unavailable = 69
  /// `EX_IOERR`: the connection was lost, or no answer came in time.
  case connectionLost = 74
  /// `EX_TEMPFAIL`: scoreboardd carried out the change, but could not save it: it shows
  /// and lives in memory, and is lost if scoreboardd stops before saving works again.
  case unsaved = 75
}
