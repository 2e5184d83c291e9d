import CScoreboardLinux

/// The libgpiod that `LibgpiodBackend` goes through: version 1.6 (v1 API, Debian and
/// Raspberry Pi OS bookworm) or 2.x (v2 API, trixie), chosen when the daemon is built.
public enum GPIOLibrary {
  /// The version of the libgpiod loaded at run time, such as `1.6.3` or `2.1.3`.
  public static var version: String {
    String(cString: sbl_gpio_library_version())
  }

  /// The libgpiod API the daemon was built against: 1 or 2.
  public static var apiGeneration: Int {
    Int(sbl_gpio_api_generation())
  }

  /// `libgpiod 1.6.3 (v1 API)` or `libgpiod 2.1.3 (v2 API)`, for `scoreboardd --version`.
  public static var description: String {
    "libgpiod \(version) (v\(apiGeneration) API)"
  }
}
