/// The options of a display drawn in a terminal.
public struct TerminalDisplayOptions: Hashable, Sendable {
  /// Text shown under the digits (`footer`); nil shows none.
  public var footer: String?

  /// Creates terminal display options.
  public init(footer: String? = nil) {
    self.footer = footer
  }
}
