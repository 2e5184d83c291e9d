extension SectionReader {
  /// Reads `driver` and then the keys of the driver it names, and reports unknown keys.
  ///
  /// `commonKeys` are the section's keys other than the drivers' own. When the driver is
  /// missing or unknown, any driver's keys count as known (any key at all, when a driver
  /// reads the section's other keys), so only the driver is reported.
  /// Otherwise the keys of the other drivers are reported as theirs, the keys the driver
  /// requires as missing, and the keys no driver has as unknown, unless the driver reads
  /// them itself.
  mutating func driver<Driver>(among parsers: [DriverParser<Driver>], commonKeys: [String])
    -> Driver?
  {
    let names = parsers.map(\.name)
    let driverKeys = parsers.flatMap(\.keys)
    let name = text("driver", expected: "a driver: \(Listing.joined(names))")
    guard let name, let parser = DriverParser.named(name.lowercased(), among: parsers) else {
      if let name {
        var message = "unknown driver '\(name)'"
        if let suggestion = suggestions.nearest(to: name, among: names) {
          message += "; did you mean '\(suggestion)'?"
        } else {
          message += "; expected \(Listing.joined(names))"
        }
        report(message, key: "driver")
      }
      if !parsers.contains(where: \.readsOtherKeys) {
        reportUnknownKeys(known: commonKeys + driverKeys)
      }
      return nil
    }
    let known = commonKeys + parser.keys
    for entry in entries where !known.contains(entry.key) {
      let owners = parsers.filter { $0.keys.contains(entry.key) }.map(\.name)
      if !owners.isEmpty {
        let drivers = owners.count == 1 ? "driver" : "drivers"
        report(
          "applies only to \(drivers) \(Listing.joined(owners, conjunction: "and")), "
            + "not to driver \(parser.name)", at: entry)
      }
    }
    if !parser.readsOtherKeys {
      reportUnknownKeys(known: known, ignoring: driverKeys)
    }
    for key in parser.requiredKeys {
      require(key)
    }
    let otherEntries =
      parser.readsOtherKeys
      ? entries.filter { !known.contains($0.key) && !driverKeys.contains($0.key) } : []
    return parser.parse(&self, otherEntries)
  }
}
