/// This machine's name, as the kernel has it (`gethostname`, which a sandbox that hides
/// `/proc/sys` still answers).
public enum HostName {
  /// The name, lowercase; nil when the kernel gives none.
  public static func current() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let result = buffer.withUnsafeMutableBufferPointer {
      SystemCall.gethostname($0.baseAddress!, $0.count - 1)
    }
    guard result == 0 else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let name = String(decoding: bytes, as: UTF8.self).lowercased()
    return name.isEmpty || name == "(none)" ? nil : name
  }
}
