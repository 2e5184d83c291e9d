@preconcurrency import Glibc

/// The kernel's boot id: a random UUID made anew at every boot, which tells whether two
/// instants of the monotonic clock are on the same clock.
public enum BootID {
  /// Where the kernel gives it.
  public static let path = "/proc/sys/kernel/random/boot_id"
  /// This boot's id; nil when it cannot be read (no /proc).
  public static func current() -> String? {
    guard let bytes = try? FileDescriptor.readRegularFile(path, limit: 128) else { return nil }
    let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
    return isValid(text) ? text : nil
  }

  /// A boot id as the state file keeps it: one word of letters, digits and `-`.
  static func isValid(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 64
      && text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-"
      }
  }
}
