import ScoreboardCore

/// Turns the bytes a terminal sends into keys with kernel names, so that a terminal goes
/// through the same keymaps as a hardware keypad.
///
/// Characters: `0`-`9` are `KEY_0`-`KEY_9`, `a`-`z` are `KEY_A`-`KEY_Z` and `A`-`Z` the
/// same with Shift; `+ - * / .` are the keypad's `KEY_KPPLUS`, `KEY_KPMINUS`,
/// `KEY_KPASTERISK`, `KEY_KPSLASH`, `KEY_KPDOT`; `,` `=` and space are `KEY_COMMA`,
/// `KEY_EQUAL`, `KEY_SPACE`. `\r` and `\n` are `KEY_ENTER` (a `\r\n` pair is one Enter),
/// DEL and BS are `KEY_BACKSPACE`, Tab is `KEY_TAB`. Other bytes are ignored.
///
/// Escape sequences (xterm, VT100 and Linux console): arrows, Home, End, Insert, Delete,
/// Page Up/Down and F1-F12 by their kernel names, with Shift when the sequence says so
/// (`ESC [ 1 ; 2 A`, `ESC [ Z` for Shift-Tab); sequences with other modifiers, and unknown
/// ones, are consumed whole and ignored.
///
/// Escape at the end of a chunk: a lone ESC is the Esc key, since a terminal sends a
/// sequence in one write while a person types Esc on its own. An unfinished sequence
/// (`ESC [ 1`) is kept and completed by the next chunk; one still unfinished after 32
/// bytes is dropped. ESC followed by a byte that starts no sequence is the Esc key, and
/// that byte is decoded on its own.
public struct TerminalKeyDecoder: Sendable {
  private static let escape: UInt8 = 0x1B
  private static let escapeKey = Key(KeyCode(name: "KEY_ESC")!)
  /// Longer sequences are garbage; they are dropped rather than kept waiting.
  private static let maximumSequenceLength = 32

  private var pending: [UInt8] = []
  private var afterCarriageReturn = false

  /// A decoder with nothing pending.
  public init() {}

  /// The keys in `bytes`, the next chunk of input, in order.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    let input = pending + bytes
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < input.count {
      let byte = input[index]
      guard byte == Self.escape else {
        if let key = character(byte) {
          keys.append(key)
        }
        index += 1
        continue
      }
      afterCarriageReturn = false
      switch Self.escapeSequence(in: input[index...]) {
      case .incomplete where index + 1 == input.count:
        keys.append(Self.escapeKey)
        index += 1
      case .incomplete:
        pending = Array(input[index...])
        index = input.count
      case .complete(let key, let length):
        if let key {
          keys.append(key)
        }
        index += length
      }
    }
    return keys
  }

  private mutating func character(_ byte: UInt8) -> Key? {
    defer { afterCarriageReturn = byte == UInt8(ascii: "\r") }
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return Key("KEY_" + String(UnicodeScalar(byte)))
    case UInt8(ascii: "a")...UInt8(ascii: "z"):
      return Key("KEY_" + String(UnicodeScalar(byte)).uppercased())
    case UInt8(ascii: "A")...UInt8(ascii: "Z"):
      return Key("KEY_" + String(UnicodeScalar(byte)), shift: true)
    case UInt8(ascii: "+"): return Key("KEY_KPPLUS")
    case UInt8(ascii: "-"): return Key("KEY_KPMINUS")
    case UInt8(ascii: "*"): return Key("KEY_KPASTERISK")
    case UInt8(ascii: "/"): return Key("KEY_KPSLASH")
    case UInt8(ascii: "."): return Key("KEY_KPDOT")
    case UInt8(ascii: ","): return Key("KEY_COMMA")
    case UInt8(ascii: "="): return Key("KEY_EQUAL")
    case UInt8(ascii: " "): return Key("KEY_SPACE")
    case UInt8(ascii: "\r"): return Key("KEY_ENTER")
    case UInt8(ascii: "\n"): return afterCarriageReturn ? nil : Key("KEY_ENTER")
    case 0x7F, 0x08: return Key("KEY_BACKSPACE")
    case UInt8(ascii: "\t"): return Key("KEY_TAB")
    default: return nil
    }
  }

  private enum EscapeSequence {
    /// The input ends before the sequence does.
    case incomplete
    /// A sequence of `length` bytes, meaning `key` (nil: ignored).
    case complete(key: Key?, length: Int)
  }

  /// The escape sequence at the start of `input`, which starts with ESC.
  private static func escapeSequence(in input: ArraySlice<UInt8>) -> EscapeSequence {
    let start = input.startIndex
    guard input.count >= 2 else { return .incomplete }
    switch input[start + 1] {
    case UInt8(ascii: "["):
      return controlSequence(in: input)
    case UInt8(ascii: "O"):
      guard input.count >= 3 else { return .incomplete }
      let final = input[start + 2]
      guard isFinalByte(final) else { return .complete(key: nil, length: 2) }
      return .complete(key: finalByteKeyNames[final].flatMap { Key($0) }, length: 3)
    default:
      return .complete(key: escapeKey, length: 1)
    }
  }

  /// A control sequence, `ESC [` then parameter bytes, intermediate bytes and a final
  /// byte (ECMA-48), or the Linux console's `ESC [ [ A` to `ESC [ [ E` for F1-F5.
  private static func controlSequence(in input: ArraySlice<UInt8>) -> EscapeSequence {
    let start = input.startIndex
    guard input.count >= 3 else { return .incomplete }
    if input[start + 2] == UInt8(ascii: "[") {
      guard input.count >= 4 else { return .incomplete }
      let final = input[start + 3]
      guard isFinalByte(final) else { return .complete(key: nil, length: 3) }
      let isFunctionKey = (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(final)
      let key = isFunctionKey ? Key("KEY_F\(final - UInt8(ascii: "A") + 1)") : nil
      return .complete(key: key, length: 4)
    }
    var parameters: [UInt8] = []
    var hasIntermediates = false
    for index in (start + 2)..<input.endIndex {
      let byte = input[index]
      switch byte {
      case 0x30...0x3F:
        parameters.append(byte)
      case 0x20...0x2F:
        hasIntermediates = true
      case _ where isFinalByte(byte):
        let key = hasIntermediates ? nil : controlSequenceKey(parameters: parameters, final: byte)
        return .complete(key: key, length: index - start + 1)
      default:
        // Not part of a sequence: end the broken sequence here and decode this byte.
        return .complete(key: nil, length: index - start)
      }
    }
    guard input.count <= maximumSequenceLength else {
      return .complete(key: nil, length: input.count)
    }
    return .incomplete
  }

  private static func isFinalByte(_ byte: UInt8) -> Bool {
    (0x40...0x7E).contains(byte)
  }

  /// The key of `ESC [ parameters final`, such as `ESC [ 3 ~` (Delete) or `ESC [ 1 ; 2 A`
  /// (Shift-Up).
  private static func controlSequenceKey(parameters: [UInt8], final: UInt8) -> Key? {
    let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
    let numbers = fields.map { field in
      field.isEmpty ? 1 : Int(String(decoding: field, as: UTF8.self))
    }
    guard numbers.count <= 2, let code = numbers[0] else { return nil }
    let modifier = numbers.count == 2 ? numbers[1] : 1
    guard modifier == 1 || modifier == 2 else { return nil }
    let shift = modifier == 2

    let name: String?
    switch final {
    case UInt8(ascii: "~"): name = tildeKeyNames[code]
    case UInt8(ascii: "Z"): return Key("KEY_TAB", shift: true)
    default: name = finalByteKeyNames[final]
    }
    return name.flatMap { Key($0, shift: shift) }
  }

  /// The keys of `ESC O final`, and of `ESC [ final` with the same final byte.
  private static let finalByteKeyNames: [UInt8: String] = [
    UInt8(ascii: "A"): "KEY_UP", UInt8(ascii: "B"): "KEY_DOWN",
    UInt8(ascii: "C"): "KEY_RIGHT", UInt8(ascii: "D"): "KEY_LEFT",
    UInt8(ascii: "H"): "KEY_HOME", UInt8(ascii: "F"): "KEY_END",
    UInt8(ascii: "P"): "KEY_F1", UInt8(ascii: "Q"): "KEY_F2",
    UInt8(ascii: "R"): "KEY_F3", UInt8(ascii: "S"): "KEY_F4",
  ]

  /// The keys of `ESC [ n ~` by `n` (xterm and VT220; 1 and 4 in the Linux console).
  private static let tildeKeyNames: [Int: String] = [
    1: "KEY_HOME", 2: "KEY_INSERT", 3: "KEY_DELETE", 4: "KEY_END", 5: "KEY_PAGEUP",
    6: "KEY_PAGEDOWN", 7: "KEY_HOME", 8: "KEY_END",
    11: "KEY_F1", 12: "KEY_F2", 13: "KEY_F3", 14: "KEY_F4", 15: "KEY_F5",
    17: "KEY_F6", 18: "KEY_F7", 19: "KEY_F8", 20: "KEY_F9", 21: "KEY_F10",
    23: "KEY_F11", 24: "KEY_F12",
  ]
}
