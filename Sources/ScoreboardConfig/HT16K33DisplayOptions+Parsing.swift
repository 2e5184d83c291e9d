import ScoreboardSettings

extension HT16K33DisplayOptions {
  /// The keys of an ht16k33 display.
  static let keys = ["bus", "address", "segments", "colon", "reinit-interval"]

  /// Reads the keys of an ht16k33 display; nil when the bus or an address is missing or
  /// wrong. `digits` is checked against the backpacks by the display section.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let bus = busPath(&reader)
    let addresses = addresses(&reader)
    let segments = reader.integer(
      "segments", among: [7, 14], expected: "the segments of a digit: ")
    let colon = reader.boolean("colon")
    if colon != nil, segments == 14 {
      reader.report("applies only to seven-segment backpacks (segments = 7)", key: "colon")
    }
    let reinitializeInterval = reader.reinitInterval()
    guard let bus, let addresses else { return nil }
    return Self(
      bus: bus, addresses: addresses, backpack: segments == 14 ? .alphanumeric : .sevenSegment,
      colon: colon ?? false, reinitializeInterval: reinitializeInterval)
  }

  /// `bus`: a bus number (`1` is `/dev/i2c-1`) or the path of an i2c-dev device.
  private static func busPath(_ reader: inout SectionReader) -> String? {
    guard let value = reader.entry("bus")?.value else { return nil }
    if let number = Int(value), (0...1023).contains(number) {
      return "/dev/i2c-\(number)"
    }
    guard value.hasPrefix("/") else {
      reader.report(
        "expected a bus number such as 1 (for /dev/i2c-1) or a device path such as "
          + "/dev/i2c-1, found \(Listing.found(value))", key: "bus")
      return nil
    }
    return value
  }

  /// `address`: one address per backpack, left to right, each once, 0x70 to 0x77.
  private static func addresses(_ reader: inout SectionReader) -> [UInt8]? {
    guard let value = reader.entry("address")?.value else { return nil }
    var addresses: [UInt8] = []
    for word in value.words() {
      let digits = word.lowercased().hasPrefix("0x") ? word.dropFirst(2) : nil
      guard let digits, let address = UInt8(digits, radix: 16), Self.addresses.contains(address)
      else {
        reader.report(
          "expected an address from 0x70 to 0x77 for each backpack, left to right, such as "
            + "0x70 0x71, found \(Listing.found(word))", key: "address")
        return nil
      }
      guard !addresses.contains(address) else {
        reader.report(
          "expected each backpack at its own address, found \(word) twice", key: "address")
        return nil
      }
      addresses.append(address)
    }
    return addresses
  }
}
