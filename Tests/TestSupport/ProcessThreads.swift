@preconcurrency import Glibc

/// The threads of a process as `/proc/PID/task` lists them: each one's name, nice
/// value and how often it went to sleep.
public enum ProcessThreads {
  /// A thread's id, name (`comm`), nice value (field 19 of its `stat`) and voluntary
  /// context switches (`voluntary_ctxt_switches` of its `status`: each time it waited,
  /// and so each time it was woken again).
  public struct Thread: Hashable, Sendable {
    public var id: Int
    public var name: String
    public var nice: Int
    public var voluntarySwitches: Int
  }

  /// The threads of `pid` (this process by default) now.
  public static func of(_ pid: pid_t = getpid()) -> [Thread] {
    guard let folder = opendir("/proc/\(pid)/task") else { return [] }
    defer { closedir(folder) }
    var threads: [Thread] = []
    while let entry = readdir(folder) {
      let id = withUnsafePointer(to: &entry.pointee.d_name) {
        String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
      }
      guard let number = Int(id),
        let stat = read("/proc/\(pid)/task/\(id)/stat"),
        let end = stat.lastIndex(of: ")")
      else { continue }
      // After the name: state (field 3) is the first, nice (field 19) the 17th.
      let fields = stat[stat.index(after: end)...].split(separator: " ")
      guard fields.count > 16, let nice = Int(fields[16]) else { continue }
      let name = read("/proc/\(pid)/task/\(id)/comm") ?? ""
      let status = read("/proc/\(pid)/task/\(id)/status", bytes: 4096) ?? ""
      let switches = status.split(separator: "\n").first {
        $0.hasPrefix("voluntary_ctxt_switches:")
      }
      .flatMap { Int($0.split(separator: "\t").last ?? "") }
      threads.append(
        Thread(
          id: number, name: String(name.prefix { $0 != "\n" }), nice: nice,
          voluntarySwitches: switches ?? 0))
    }
    return threads
  }

  private static func read(_ path: String, bytes: Int = 1024) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: bytes)
    let count = Glibc.read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }
}
