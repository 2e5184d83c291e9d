import ScoreboardCore

/// The commands that the Titan Micro LED drivers (TM1637, TM1638) share, and the
/// transactions that write their display registers.
///
/// Command classes are bits 7-6: `01` data command (`0x40` write with auto-increment,
/// `0x44` fixed address, `0x42` read the keys), `11` address `0xC0 + a`, followed by data
/// bytes, `10` display control (`0x80` off, `0x88 | b` on with brightness b 0-7).
enum TitanMicroCommands {
  static let autoIncrement: UInt8 = 0x40
  static let fixedAddress: UInt8 = 0x44
  static let readKeys: UInt8 = 0x42
  static let firstAddress: UInt8 = 0xC0
  static let displayOff: UInt8 = 0x80
  static let displayOn: UInt8 = 0x88

  /// What the chip holds, as far as an encoder knows: its display registers (the grids
  /// it uses) and its display control.
  struct State: Equatable {
    var registers: [UInt8]
    var control: UInt8
  }

  /// The transactions that bring a chip that holds `shown` to `target`: every register
  /// and the display control when `shown` is unknown (nil), else the registers that
  /// changed (`changes(from:to:)`) and the display control if it changed.
  static func transactions(from shown: State?, to target: State) -> [[UInt8]] {
    guard let shown else { return writing(target.registers) + [[target.control]] }
    let control = target.control != shown.control ? [[target.control]] : []
    return changes(from: shown.registers, to: target.registers) + control
  }

  /// The display control for `frame`: off for a blank frame, else on with its brightness
  /// 0-15 mapped to the chip's 0-7 as `b / 2`.
  static func displayControl(for frame: Frame) -> UInt8 {
    guard !frame.isBlank else { return displayOff }
    return displayOn | UInt8(min(max(frame.brightness, 0), 15) / 2)
  }

  /// The transactions that write every register of `registers`, from address 0, with
  /// auto-increment.
  static func writing(_ registers: [UInt8]) -> [[UInt8]] {
    [[autoIncrement], [firstAddress] + registers]
  }

  /// The transactions that write the registers of `target` that differ from `shown`:
  /// one auto-increment run from the first changed register to the last, or a
  /// fixed-address write per changed register, whichever is fewer bytes, fixed
  /// addresses on a tie; none when nothing changed.
  static func changes(from shown: [UInt8], to target: [UInt8]) -> [[UInt8]] {
    let changed = target.indices.filter { target[$0] != shown[$0] }
    guard let first = changed.first, let last = changed.last else { return [] }
    let run = last - first + 1
    // Bytes: the data command, the address and the run, against the data command and an
    // address and a byte per changed register.
    if 2 + run < 1 + 2 * changed.count {
      let bytes: [UInt8] = [firstAddress + UInt8(first)] + target[first...last]
      return [[autoIncrement], bytes]
    }
    let writes: [[UInt8]] = changed.map { [firstAddress + UInt8($0), target[$0]] }
    return [[fixedAddress]] + writes
  }
}
