import ScoreboardCore

/// The SparkFun Serial 7-Segment Display (and OpenSegment) over its UART
/// (`driver = s7s`): one module of 4 digits, a colon and an apostrophe.
///
/// A display of several modules uses one encoder per module, each given the module's 4
/// cells. A frame with fewer cells leaves the missing digits dark; cells after the
/// fourth are not shown.
///
/// On the wire: `0x76` clears the display once, when the device is initialised; each
/// digit is written as raw segments (`0x7B`-`0x7E` and the segments) and only when it
/// changes; the decimal points and the colon go in one `0x77` command, sent when any of
/// them changes; brightness is `0x7A` with 0-100, sent when the device is initialised and
/// afterwards only when it changes, because the firmware writes it to EEPROM on every
/// such command. The module's colon sits between digits 2 and 3: a frame's colon after
/// cell 1 (a clock's `12:34`) lights it instead of the point of digit 2 that the frame
/// also has lit there; a colon anywhere else shows as the point of its cell.
/// The module has no display-off command: a blank frame turns every segment and point
/// dark and leaves the brightness as it is. The module never answers.
public struct SparkFunSerial7Segment: SerialProtocol {
  /// The digits of one module.
  private static let digitCount = 4
  /// The cell the module's colon follows.
  private static let colonCell = 1
  /// The colon's bit of the `0x77` command, above the points of digits 1-4.
  private static let colonBit: UInt8 = 1 << 4

  /// What the module shows, as far as the encoder is concerned.
  private struct Shown: Equatable {
    /// Segments A-G of each digit, bit 0 = A: four of them, held in place.
    var digits: SIMD4<UInt8>
    /// The `0x77` byte: bits 0-3 = DP of digits 1-4, bit 4 = colon (the apostrophe, bit 5,
    /// stays dark).
    var points: UInt8
    /// The module's brightness, 0-100.
    var brightness: UInt8
  }

  private enum Command {
    static let clear: UInt8 = 0x76
    static let points: UInt8 = 0x77
    static let brightness: UInt8 = 0x7A
    static let firstDigitSegments: UInt8 = 0x7B
  }

  private var shown: Shown?

  /// An encoder for a module in an unknown state.
  public init() {}

  /// The module never answers.
  public var acknowledgement: Acknowledgement? { nil }

  /// Clears the module, then sets the brightness, every digit, the decimal points and the
  /// colon.
  public mutating func initialize(showing frame: Frame) -> [UInt8] {
    let target = Self.shown(for: frame, keepingBrightness: nil)
    var bytes = [Command.clear, Command.brightness, target.brightness]
    for digit in target.digits.indices {
      bytes += [Command.firstDigitSegments + UInt8(digit), target.digits[digit]]
    }
    bytes += [Command.points, target.points]
    shown = target
    return bytes
  }

  /// Every digit, the decimal points and the colon, without the clear (the digits are
  /// written in place): first what changed, as `update` sends it, so that a change lands
  /// as early as it would without the refresh, then the rest. The brightness only if it
  /// changed: the firmware keeps it in EEPROM, and writes it there on every brightness
  /// command. Initialises the module if it was never initialised.
  public mutating func refresh(showing frame: Frame) -> [UInt8] {
    guard let before = shown else { return initialize(showing: frame) }
    var bytes: [UInt8] = []
    update(to: frame, appendingTo: &bytes)
    guard let target = shown else { return bytes }
    for digit in target.digits.indices where target.digits[digit] == before.digits[digit] {
      bytes += [Command.firstDigitSegments + UInt8(digit), target.digits[digit]]
    }
    if target.points == before.points {
      bytes += [Command.points, target.points]
    }
    return bytes
  }

  /// The commands for what differs from what the module shows: brightness, digits in
  /// order, decimal points and colon. While the frame is blank, brightness changes wait
  /// until the display shows again. Initialises the module if it was never initialised.
  public mutating func update(to frame: Frame, appendingTo bytes: inout [UInt8]) {
    guard let shown else {
      bytes += initialize(showing: frame)
      return
    }
    let target = Self.shown(for: frame, keepingBrightness: shown.brightness)
    // At most three commands of two bytes each besides the digits'.
    bytes.reserveCapacity(bytes.count + 2 * (Self.digitCount + 2))
    if target.brightness != shown.brightness {
      bytes.append(Command.brightness)
      bytes.append(target.brightness)
    }
    for digit in target.digits.indices where target.digits[digit] != shown.digits[digit] {
      bytes.append(Command.firstDigitSegments + UInt8(digit))
      bytes.append(target.digits[digit])
    }
    if target.points != shown.points {
      bytes.append(Command.points)
      bytes.append(target.points)
    }
    self.shown = target
  }

  /// The module's state for `frame`; a blank frame keeps `currentBrightness` when known.
  private static func shown(for frame: Frame, keepingBrightness currentBrightness: UInt8?)
    -> Shown
  {
    let brightness = moduleBrightness(frame.brightness)
    guard !frame.isBlank else {
      return Shown(digits: .zero, points: 0, brightness: currentBrightness ?? brightness)
    }
    var digits = SIMD4<UInt8>.zero
    let hasColon = frame.colons?.contains(colonCell) ?? false
    var points: UInt8 = hasColon ? colonBit : 0
    for digit in 0..<digitCount {
      let cell = digit < frame.cells.count ? frame.cells[digit] : .blank
      digits[digit] = cell.withoutPoint.rawValue
      if cell.contains(.dp), !(hasColon && digit == colonCell) {
        points |= 1 << digit
      }
    }
    return Shown(digits: digits, points: points, brightness: brightness)
  }

  /// The module's brightness 0-100 for a frame brightness 0-15 (clamped to that range):
  /// `level * 100 / 15` rounded to the nearest, in integers (no level falls halfway), so
  /// that a frame reads no floating-point constants and calls nothing in libm.
  private static func moduleBrightness(_ level: Int) -> UInt8 {
    let clamped = min(max(level, 0), 15)
    return UInt8((clamped * 100 + 7) / 15)
  }
}
