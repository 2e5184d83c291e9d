/// A Linux input key code (`EV_KEY` code), such as 71 for `KEY_KP7`.
public struct KeyCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt16

  public init(rawValue: UInt16) {
    self.rawValue = rawValue
  }

  private static let codesByName: [String: UInt16] = Dictionary(
    kernelNames.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })

  /// The name of each code, indexed by code (the kernel's codes run from 0 to a few
  /// hundred): looked up for every key event, so without hashing.
  private static let namesByCode: [String?] = {
    var names = [String?](repeating: nil, count: Int(kernelNames.map(\.code).max() ?? 0) + 1)
    for entry in kernelNames.reversed() {
      names[Int(entry.code)] = entry.name
    }
    return names
  }()

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
    let index = Int(rawValue)
    return index < Self.namesByCode.count ? Self.namesByCode[index] : nil
  }

  /// Whether the kernel names this code: what a decoder asks of every key event, without
  /// fetching the name.
  public var hasName: Bool {
    let index = Int(rawValue)
    return index < Self.namesByCode.count && Self.namesByCode[index] != nil
  }

  public var description: String {
    name ?? "key code \(rawValue)"
  }
}
