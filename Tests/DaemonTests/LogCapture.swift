@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore

/// A logger whose lines a test reads back: journal style, every level.
final class LogCapture {
  let logger: Logger
  private let readEnd: FileDescriptor
  private let writeEnd: FileDescriptor
  private var text = ""

  init() throws {
    (readEnd, writeEnd) = try FileDescriptor.pipe()
    try readEnd.setNonBlocking()
    logger = Logger(
      output: writeEnd, programName: "scoreboardd", minimumLevel: .debug, style: .journal)
  }

  deinit {
    try? readEnd.close()
    try? writeEnd.close()
  }

  /// The descriptor the logger writes to, which failures injected for the state file's
  /// `write` must leave alone.
  var descriptor: CInt { writeEnd.rawValue }

  /// Every line logged so far.
  var lines: [String] {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while let count = try? chunk.withUnsafeMutableBytes({ try readEnd.read(into: $0) }), count > 0 {
      text += String(decoding: chunk[..<count], as: UTF8.self)
    }
    return text.split(separator: "\n").map(String.init)
  }
}

extension Instant {
  /// The instant `seconds` after the origin.
  static func seconds(_ seconds: Int64) -> Instant {
    .milliseconds(seconds * 1000)
  }
}
