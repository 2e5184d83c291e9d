import ScoreboardSettings

/// Reads a `[display NAME]` section: its driver, its number of cells, what it shows once
/// scoreboardd stops, the driver's keys.
enum DisplaySectionParser {
  /// A display read without error, with where its keys were given, for the checks that
  /// compare displays and fields.
  struct Display {
    var configuration: DisplayConfiguration
    /// The section's title, for messages.
    var section: String
    /// The line of `port`, or of the section header when the driver has no port.
    var portLine: Int
    /// The line of `template`, or of the section header when the driver has no template.
    var templateLine: Int
    /// The line of `address`, or of the section header when the driver has no address.
    var addressLine: Int
    /// The GPIO lines the display uses, with their keys.
    var gpioLines: [GPIOLineUse]
    /// The section's entries, for the checks against sections read later (a TM1638
    /// board's LEDs name fields, its `keymap` a keymap).
    var entries: [IniEntry]
  }

  /// The most cells a display may have.
  static let maximumCellCount = 64

  /// The keys of every display, whatever its driver.
  static let commonKeys = ["driver", "digits", "on-stop"]

  /// The display, or nil when something in the section is wrong.
  static func parse(name: String, reader: inout SectionReader) -> Display? {
    reader.require("driver")
    let givenCellCount = reader.integer("digits", in: 1...maximumCellCount)
    let onStop: DisplayConfiguration.FinalFrame? = reader.choice("on-stop")
    let driver = reader.driver(among: DisplayDriver.parsers, commonKeys: commonKeys)
    guard let driver else { return nil }
    let cellCount = cellCount(of: driver, given: givenCellCount, reader: &reader)
    guard !reader.hasErrors, let cellCount else { return nil }
    let configuration = DisplayConfiguration(
      name: name, line: reader.section.line, cellCount: cellCount, driver: driver,
      onStop: onStop ?? .keep)
    return Display(
      configuration: configuration, section: reader.section.title,
      portLine: reader.line(of: "port"), templateLine: reader.line(of: "template"),
      addressLine: reader.line(of: "address"), gpioLines: reader.gpioLineUses,
      entries: reader.entries)
  }

  /// The display's cells: those of its S7S modules, which `digits` may only repeat, or
  /// else `digits`.
  private static func cellCount(of driver: DisplayDriver, given: Int?, reader: inout SectionReader)
    -> Int?
  {
    if case .ht16k33(let options) = driver {
      return backpackCellCount(of: options, given: given, reader: &reader)
    }
    guard case .s7s(let options) = driver else { return given }
    let ports = options.ports.count
    let count = ports * S7SDisplayOptions.digitsPerModule
    let perPort =
      "an s7s display has \(S7SDisplayOptions.digitsPerModule) digits per port: "
      + "\(Listing.count(ports, "port")) \(ports == 1 ? "makes" : "make") \(count) digits"
    if count > maximumCellCount {
      reader.report("\(perPort), but a display has at most \(maximumCellCount)", key: "port")
      return nil
    }
    if let given, given != count {
      reader.report("\(perPort), found \(given)", key: "digits")
      return nil
    }
    return count
  }

  /// The display's cells on HT16K33 backpacks: `digits`, at most 4 per backpack and more
  /// than the backpacks but one have, or else all of theirs.
  private static func backpackCellCount(
    of options: HT16K33DisplayOptions, given: Int?, reader: inout SectionReader
  ) -> Int? {
    let capacity = options.digitCapacity
    guard let given else { return capacity }
    let perBackpack = HT16K33Backpack.digitsPerBackpack
    let backpacks = options.addresses.count
    guard given > capacity - perBackpack, given <= capacity else {
      reader.report(
        "\(Listing.count(backpacks, "backpack")) of \(perBackpack) digits "
          + "\(backpacks == 1 ? "has" : "have") \(capacity) digits: expected digits from "
          + "\(capacity - perBackpack + 1) to \(capacity), found \(given)", key: "digits")
      return nil
    }
    return given
  }
}
