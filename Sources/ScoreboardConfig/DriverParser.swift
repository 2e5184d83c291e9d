/// How one kind of driver (`driver = terminal`) reads its own keys from its section.
struct DriverParser<Driver>: Sendable {
  /// The value of `driver` that selects it.
  var name: String
  /// The keys only this driver has.
  var keys: [String]
  /// The keys a section with this driver must have, among the section's common keys and
  /// the driver's own.
  var requiredKeys: [String]
  /// Whether the driver takes the section's other keys, those no driver and not the
  /// section has, as its own (a gpio-buttons keypad's `BTN_0 = GPIO17`) and reports those
  /// it does not know; otherwise they are reported as unknown keys.
  var readsOtherKeys: Bool
  /// Reads the driver's keys, and the section's other keys when it `readsOtherKeys`;
  /// problems are reported to the reader, and nil is returned when the driver cannot be
  /// built.
  var parse: @Sendable (inout SectionReader, _ otherEntries: [IniEntry]) -> Driver?

  /// Creates the parser of the driver `name`, which has only the keys `keys`.
  init(
    name: String, keys: [String], requiredKeys: [String] = [],
    parse: @escaping @Sendable (inout SectionReader) -> Driver?
  ) {
    self.name = name
    self.keys = keys
    self.requiredKeys = requiredKeys
    self.readsOtherKeys = false
    self.parse = { reader, _ in parse(&reader) }
  }

  /// Creates the parser of the driver `name`, which has the keys `keys` and takes the
  /// section's other entries too.
  init(
    name: String, keys: [String], requiredKeys: [String] = [],
    parseWithOtherEntries parse:
      @escaping @Sendable (inout SectionReader, _ otherEntries: [IniEntry]) -> Driver?
  ) {
    self.name = name
    self.keys = keys
    self.requiredKeys = requiredKeys
    self.readsOtherKeys = true
    self.parse = parse
  }

  /// The parser of the driver `name`, among `parsers`, if there is one.
  static func named(_ name: String, among parsers: [Self]) -> Self? {
    parsers.first { $0.name == name }
  }
}
