/// A Linux input key code (`EV_KEY` code), such as 71 for `KEY_KP7`.
public struct KeyCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt16

  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  private static let codesByName: [String: UInt16] = Dictionary(
    kernelNames.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })

  private static let namesByCode: [UInt16: String] = Dictionary(
    kernelNames.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })

  /// The code of a kernel key name (`KEY_KPENTER`, `BTN_0`); nil when there is none.
  public init?(name: String) {
    guard let code = Self.codesByName[name] else { return nil }
    rawValue = code
  }

  /// Every kernel key and button name, in the header's order.
  public static var allNames: [String] {
    kernelNames.map(\.name)
  }

  /// The kernel's name of this code (the first, where the header has aliases).
  public var name: String? {
    Self.namesByCode[rawValue]
  }

  public var description: String {
    name ?? "key code \(rawValue)"
  }
}
