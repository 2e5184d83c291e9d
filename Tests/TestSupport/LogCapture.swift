import LinuxIO

/// A logger whose lines a test reads back: journal style, every level. The lines go to
/// a file of a folder of its own, which never fills up as a pipe would: a daemon in a
/// test that logs more than the test reads never blocks.
public final class LogCapture {
  public let logger: Logger
  private let folder: TemporaryFolder
  private let readEnd: FileDescriptor
  private let writeEnd: FileDescriptor
  private var text = ""

  public init() throws {
    folder = try TemporaryFolder()
    let path = folder.path(of: "log")
    writeEnd = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec])
    readEnd = try FileDescriptor.open(path, .readOnly)
    logger = Logger(
      output: writeEnd, programName: "scoreboardd", minimumLevel: .debug, style: .journal)
  }

  deinit {
    try? readEnd.close()
    try? writeEnd.close()
  }

  /// The descriptor the logger writes to, which failures injected for other writes must
  /// leave alone.
  public var descriptor: CInt { writeEnd.rawValue }

  /// Every line logged so far.
  public var lines: [String] {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while let count = try? chunk.withUnsafeMutableBytes({ try readEnd.read(into: $0) }), count > 0 {
      text += String(decoding: chunk[..<count], as: UTF8.self)
    }
    return text.split(separator: "\n").map(String.init)
  }
}
