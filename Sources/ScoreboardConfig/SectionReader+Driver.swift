extension SectionReader {
  /// Reads `driver` and then the keys of the driver it names, and reports unknown keys.
  ///
  /// `commonKeys` are the section's keys other than the drivers' own. When the driver is
  /// missing or unknown, any driver's keys count as known, so only the driver is reported.
  mutating func driver<Driver>(among parsers: [DriverParser<Driver>], commonKeys: [String])
    -> Driver?
  {
    let names = parsers.map(\.name)
    guard let name = text("driver", expected: "a driver: \(Listing.joined(names))") else {
      reportUnknownKeys(known: commonKeys + parsers.flatMap(\.keys))
      return nil
    }
    guard let parser = DriverParser.named(name.lowercased(), among: parsers) else {
      report("unknown driver '\(name)'; expected \(Listing.joined(names))", key: "driver")
      reportUnknownKeys(known: commonKeys + parsers.flatMap(\.keys))
      return nil
    }
    reportUnknownKeys(known: commonKeys + parser.keys)
    return parser.parse(&self)
  }
}
