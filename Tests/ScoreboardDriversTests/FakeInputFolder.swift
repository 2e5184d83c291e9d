@preconcurrency import Glibc
import LinuxIO
import ScoreboardCore
import TestSupport
import Testing

/// A stand-in for `/dev/input` in a temporary folder: FIFOs play the event nodes,
/// carrying real `input_event` records, and symbolic links play udev's `by-id` links.
/// Removed with everything in it when released.
final class FakeInputFolder {
  private let folder: TemporaryFolder
  /// The test's write ends of the FIFOs, by node name.
  private var writers: [String: FileDescriptor] = [:]

  init() throws {
    folder = try TemporaryFolder()
  }

  deinit {
    for writer in writers.values {
      try? writer.close()
    }
  }

  /// The folder's path.
  var path: String { folder.path }

  /// Creates the node `name` (`event3`) and returns its path.
  @discardableResult
  func plug(_ name: String) throws -> String {
    try folder.makeFIFO(name)
  }

  /// Creates the folder `name` (`by-id`) if it does not exist.
  func makeFolder(_ name: String) throws {
    if !folder.names().contains(name) {
      try folder.makeFolder(name)
    }
  }

  /// Creates the link `name` in the folder `folder` (`by-id`), leading to the node
  /// `node`, and returns its path.
  @discardableResult
  func link(_ name: String, in folder: String, to node: String) throws -> String {
    try makeFolder(folder)
    let link = "\(path)/\(folder)/\(name)"
    try #require(symlink("../\(node)", link) == 0)
    return link
  }

  /// Deletes the node `name` (and the link `link`, if given), then closes the test's
  /// write end: the FIFO's reader sees its input end, as a device read fails with ENODEV.
  func unplug(_ name: String, link: String? = nil) throws {
    if let link {
      try #require(unlink(link) == 0)
    }
    try #require(unlink("\(path)/\(name)") == 0)
    try writers.removeValue(forKey: name)?.close()
  }

  /// Writes `events` to the node `name`, which the keypad must have open.
  func send(_ events: [InputEvent], to name: String) throws {
    try send(InputEvent.records(events), to: name)
  }

  /// Writes raw `bytes` to the node `name`, which the keypad must have open.
  func send(_ bytes: some Sequence<UInt8>, to name: String) throws {
    if writers[name] == nil {
      writers[name] = try FileDescriptor.open(
        "\(path)/\(name)", .writeOnly, options: [.nonBlocking])
    }
    try writers[name]!.writeAll(bytes)
  }

  /// The events of a key changing at `milliseconds`: the key event, then `SYN_REPORT`.
  static func key(_ name: String, _ value: Int32, at milliseconds: Int64 = 0) -> [InputEvent] {
    let timestamp = milliseconds * 1_000_000
    return [
      InputEvent(
        timestamp: timestamp, type: .key, code: KeyCode(name: name)!.rawValue, value: value),
      InputEvent(timestamp: timestamp, type: .synchronization, code: InputEvent.report, value: 0),
    ]
  }
}
