import ScoreboardSettings

/// The options of Adafruit HT16K33 backpacks on an I²C bus, one or several side by side
/// making one display (`driver = ht16k33`).
public struct HT16K33DisplayOptions: Hashable, Sendable {
  /// The addresses a backpack can be jumpered to.
  public static let addresses: ClosedRange<UInt8> = 0x70...0x77

  /// The bus device (`bus`), such as `/dev/i2c-1`.
  public var bus: String
  /// Each backpack's 7-bit address, left to right (`address`).
  public var addresses: [UInt8]
  /// Seven-segment or alphanumeric backpacks (`segments`).
  public var backpack: HT16K33Backpack
  /// Whether a seven-segment backpack's colon is lit as a separator on a display that
  /// shows no clock (`colon`); a clock's colon is lit whatever this says.
  public var colon: Bool
  /// How often the chips are set up again although every transfer worked
  /// (`reinit-interval`), for a backpack that lost power and came back dark; nil for
  /// never.
  public var reinitializeInterval: Duration?

  /// Creates HT16K33 display options.
  public init(
    bus: String, addresses: [UInt8], backpack: HT16K33Backpack = .sevenSegment,
    colon: Bool = false, reinitializeInterval: Duration? = .seconds(60)
  ) {
    self.bus = bus
    self.addresses = addresses
    self.backpack = backpack
    self.colon = colon
    self.reinitializeInterval = reinitializeInterval
  }

  /// The digits of all the backpacks.
  public var digitCapacity: Int {
    addresses.count * HT16K33Backpack.digitsPerBackpack
  }
}
