import ScoreboardCore

/// The web consoles paired with the board, as the daemon keeps them in its state folder:
/// each device's name, the SHA-256 of its token (never the token), the fields it may
/// change, and when it was paired and last seen.
///
/// The file is text, one device a line after a header:
///
///     scoreboardd-devices 1
///     scorer 9f86d081884c7d65... * 1796350758075 1796350912000
///     shotclock 60303ae22b998861... shot 1796350760000 0
public struct PairedDevices: Equatable, Sendable {
  /// One paired device.
  public struct Device: Equatable, Sendable {
    public var name: String
    /// The SHA-256 of its token, as 64 hexadecimal digits.
    public var tokenHash: String
    /// The fields it may change; nil: every one.
    public var fields: [String]?
    /// Wall-clock milliseconds since 1970 when it was paired, and last seen (0: never).
    public var pairedAt: Int64
    public var lastSeen: Int64

    public init(
      name: String, tokenHash: String, fields: [String]?, pairedAt: Int64, lastSeen: Int64
    ) {
      self.name = name
      self.tokenHash = tokenHash
      self.fields = fields
      self.pairedAt = pairedAt
      self.lastSeen = lastSeen
    }

    /// Whether it may change field `name`.
    public func mayChange(_ field: String) -> Bool {
      fields?.contains(field) ?? true
    }
  }

  /// Why a devices file cannot be read.
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// The most devices kept; pairing one more forgets the one seen longest ago.
  public static let limit = 32
  /// The longest name a device may have.
  public static let nameLimit = 32
  private static let header = "scoreboardd-devices 1"

  public private(set) var devices: [Device] = []

  public init() {}

  /// The device whose token is `token` (its hexadecimal text, from the cookie).
  public func device(withToken token: String) -> Device? {
    guard let bytes = Hex.bytes(token), bytes.count == 16 else { return nil }
    let hash = SHA256.hexDigest(bytes)
    return devices.first { $0.tokenHash == hash }
  }

  /// A name for a new device from what its user typed: letters, digits, `.`, `_` and `-`
  /// kept (others become `-`), at most `nameLimit` characters, `phone` when nothing is
  /// left, and a number added when another device has it (`phone-2`).
  public func freeName(for typed: String) -> String {
    var base = String(
      typed.unicodeScalars.prefix(Self.nameLimit).map { scalar -> Character in
        Self.isNameCharacter(scalar) ? Character(scalar) : "-"
      })
    base = String(base.drop { $0 == "-" })
    if base.isEmpty || base.lowercased() == "all" { base = "phone" }
    var name = base
    var number = 2
    while devices.contains(where: { $0.name == name }) {
      name = "\(base.prefix(Self.nameLimit - 4))-\(number)"
      number += 1
    }
    return name
  }

  /// Adds `device`, forgetting the device seen longest ago when `limit` are paired.
  public mutating func add(_ device: Device) {
    if devices.count >= Self.limit,
      let oldest = devices.indices.min(by: {
        max(devices[$0].lastSeen, devices[$0].pairedAt)
          < max(devices[$1].lastSeen, devices[$1].pairedAt)
      })
    {
      devices.remove(at: oldest)
    }
    devices.append(device)
  }

  /// Forgets the device named `name`, or every one for `all`; the names forgotten.
  public mutating func remove(_ name: String) -> [String] {
    let gone = devices.filter { name == "all" || $0.name == name }.map(\.name)
    devices.removeAll { name == "all" || $0.name == name }
    return gone
  }

  /// Notes that the device named `name` was seen at `wallClockMilliseconds`.
  public mutating func see(_ name: String, at wallClockMilliseconds: Int64) {
    guard let index = devices.firstIndex(where: { $0.name == name }) else { return }
    devices[index].lastSeen = wallClockMilliseconds
  }

  /// The file's text.
  public var text: String {
    var lines = [Self.header]
    for device in devices {
      let fields = device.fields.map { $0.joined(separator: ",") } ?? "*"
      lines.append(
        "\(device.name) \(device.tokenHash) \(fields) \(device.pairedAt) \(device.lastSeen)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The devices of a file's `text`.
  ///
  /// - Throws: `Problem` naming the line that is not a device, or a missing header.
  public init(parsing text: String) throws(Problem) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first.map(String.init) == Self.header else {
      throw Problem(description: "line 1: expected '\(Self.header)'")
    }
    for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let words = line.split(separator: " ")
      // The fields: `*` for every one, else names separated by commas.
      let fields =
        words.count == 5 && words[2] != "*"
        ? words[2].split(separator: ",", omittingEmptySubsequences: false) : []
      guard words.count == 5, words[0].count <= Self.nameLimit,
        words[0].unicodeScalars.allSatisfy(Self.isNameCharacter), words[0] != "all",
        words[1].count == 64, Hex.bytes(words[1]) != nil,
        fields.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(Self.isNameCharacter) }),
        let pairedAt = Int64(words[3]), let lastSeen = Int64(words[4])
      else {
        throw Problem(
          description:
            "line \(offset + 1): not a device: '\(String(line.prefix(120)).escapingControlCharacters)'"
        )
      }
      guard !devices.contains(where: { $0.name == words[0] }) else {
        throw Problem(description: "line \(offset + 1): a second device named '\(words[0])'")
      }
      devices.append(
        Device(
          name: String(words[0]), tokenHash: words[1].lowercased(),
          fields: words[2] == "*" ? nil : fields.map(String.init),
          pairedAt: pairedAt, lastSeen: lastSeen))
    }
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
    default: false
    }
  }
}
