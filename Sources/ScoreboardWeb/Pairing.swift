import ScoreboardCore

/// The pairing of web consoles with the board: a one-time code, armed by the operator
/// (`scoreboardctl pair`, a keypad's `pair` key) and shown on the board's own digits,
/// that a phone enters once; wrong codes lock their address out, and too many in all
/// disarm it. Pure: every answer depends on the instants it is given.
public struct Pairing: Sendable {
  /// How long an armed code is taken.
  public static let codeLifetime = Duration.seconds(120)
  /// How long an address that sent `triesPerAddress` wrong codes is refused.
  public static let lockout = Duration.seconds(120)
  /// Wrong codes from one address before it is locked out.
  public static let triesPerAddress = 5
  /// Wrong codes in all, from every address, before the code is disarmed.
  public static let triesInAll = 30

  /// The armed code: its six digits, the fields it gives (nil: every one), and when it
  /// expires.
  public struct Armed: Equatable, Sendable {
    public var code: String
    public var fields: [String]?
    public var expires: Instant
  }

  /// What a code entered from an address did.
  public enum Attempt: Equatable, Sendable {
    /// The code was right: pair the device for `fields` (nil: every field). The code is
    /// used up.
    case paired(fields: [String]?)
    /// The code was wrong; `triesLeft` more from this address before its lockout.
    case wrong(triesLeft: Int)
    /// This address sent too many wrong codes; it is refused until `until`.
    case lockedOut(until: Instant)
    /// No code is armed (never, expired, used, or disarmed by too many wrong codes).
    case notArmed
  }

  /// The code now armed; read `code(at:)` for whether it still holds.
  public private(set) var armed: Armed?
  private var wrongByAddress: [String: (count: Int, lockedUntil: Instant?)] = [:]
  private var wrongInAll = 0

  public init() {}

  /// Arms `code` (six digits) from `now` for `codeLifetime`, for `fields` (nil: all),
  /// replacing any code armed before; the count of wrong codes starts again, and
  /// addresses locked out stay locked out.
  public mutating func arm(code: String, fields: [String]?, at now: Instant) {
    armed = Armed(code: code, fields: fields, expires: now + Self.codeLifetime)
    wrongInAll = 0
    wrongByAddress = wrongByAddress.filter { $0.value.lockedUntil.map { now < $0 } ?? false }
  }

  /// Disarms the code.
  public mutating func disarm() {
    armed = nil
  }

  /// The armed code at `now`; nil once it expired.
  public func code(at now: Instant) -> Armed? {
    guard let armed, now < armed.expires else { return nil }
    return armed
  }

  /// Tries `code` from `address` at `now`.
  public mutating func attempt(_ code: String, from address: String, at now: Instant) -> Attempt {
    if let lockedUntil = wrongByAddress[address]?.lockedUntil, now < lockedUntil {
      return .lockedOut(until: lockedUntil)
    }
    guard let armed = self.code(at: now) else {
      self.armed = nil
      return .notArmed
    }
    if Self.same(code, armed.code) {
      self.armed = nil
      wrongByAddress[address] = nil
      return .paired(fields: armed.fields)
    }
    wrongInAll += 1
    if wrongInAll >= Self.triesInAll {
      self.armed = nil
    }
    var entry = wrongByAddress[address] ?? (0, nil)
    if entry.lockedUntil.map({ now >= $0 }) == true {
      entry = (0, nil)
    }
    entry.count += 1
    if entry.count >= Self.triesPerAddress {
      entry.lockedUntil = now + Self.lockout
      wrongByAddress[address] = entry
      return .lockedOut(until: now + Self.lockout)
    }
    wrongByAddress[address] = entry
    return .wrong(triesLeft: Self.triesPerAddress - entry.count)
  }

  /// When the armed code expires, for the loop's deadline.
  public var expires: Instant? { armed?.expires }

  /// Compares two codes in a time that depends on their lengths only.
  private static func same(_ given: String, _ armed: String) -> Bool {
    let left = Array(given.utf8)
    let right = Array(armed.utf8)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices {
      difference |= left[index] ^ right[index]
    }
    return difference == 0
  }

  /// Six decimal digits from random `bytes` (at least 4; uniform: a value in the biased
  /// tail is refused and nil returned, and the caller draws again).
  public static func code(from bytes: [UInt8]) -> String? {
    guard bytes.count >= 4 else { return nil }
    let value = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let limit = UInt32.max - UInt32.max % 1_000_000
    guard value < limit else { return nil }
    let digits = String(value % 1_000_000)
    return String(repeating: "0", count: 6 - digits.count) + digits
  }
}
