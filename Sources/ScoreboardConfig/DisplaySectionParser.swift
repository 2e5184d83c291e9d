/// Reads a `[display NAME]` section: its driver, its number of cells, the driver's keys.
enum DisplaySectionParser {
  /// The most cells a display may have.
  static let maximumCellCount = 64

  /// The keys of every display, whatever its driver.
  static let commonKeys = ["driver", "digits"]

  /// The display, or nil when something in the section is wrong.
  static func parse(name: String, reader: inout SectionReader) -> DisplayConfiguration? {
    reader.require("driver", "digits")
    let cellCount = reader.integer("digits", in: 1...maximumCellCount)
    let driver = reader.driver(among: DisplayDriver.parsers, commonKeys: commonKeys)
    guard !reader.hasErrors, let cellCount, let driver else { return nil }
    return DisplayConfiguration(
      name: name, line: reader.section.line, cellCount: cellCount, driver: driver)
  }
}
