/// Why a configuration was rejected: every problem found in the file, in line order.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The problems, in line order.
  public var diagnostics: [Diagnostic]

  /// Creates an error from its diagnostics.
  public init(diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// One diagnostic per line.
  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}
