/// The version of scoreboardd, which scoreboardctl shares: the upstream part of the
/// Debian package's version (debian/changelog), checked when the package is built.
public enum ProductVersion {
  /// The version `--version` prints, such as `0.2.0`.
  public static let text = "0.2.0"
}
