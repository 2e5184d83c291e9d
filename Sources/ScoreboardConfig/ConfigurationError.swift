/// Why a configuration was rejected: every problem found in the file, in line order.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// How many problems the description shows; a file with more ends it with how many
  /// were left out, so that a broken file cannot flood a terminal or the journal.
  public static let describedDiagnostics = 100

  /// The problems, in line order.
  public var diagnostics: [Diagnostic]

  /// Creates an error from its diagnostics.
  public init(diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// One diagnostic per line, the first `describedDiagnostics` of them, then a line
  /// saying how many more there are, if any.
  public var description: String {
    var lines = diagnostics.prefix(Self.describedDiagnostics).map(\.description)
    if let first = diagnostics.first, diagnostics.count > Self.describedDiagnostics {
      let more = diagnostics.count - Self.describedDiagnostics
      lines.append("\(first.file): \(more) more \(more == 1 ? "problem" : "problems") not shown")
    }
    return lines.joined(separator: "\n")
  }
}
