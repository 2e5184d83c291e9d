/// How one kind of driver (`driver = terminal`) reads its own keys from its section.
struct DriverParser<Driver>: Sendable {
  /// The value of `driver` that selects it.
  var name: String
  /// The keys only this driver has.
  var keys: [String]
  /// The keys a section with this driver must have, among the section's common keys and
  /// the driver's own.
  var requiredKeys: [String]
  /// Reads the driver's keys; problems are reported to the reader, and nil is returned
  /// when the driver cannot be built.
  var parse: @Sendable (inout SectionReader) -> Driver?

  /// Creates the parser of the driver `name`.
  init(
    name: String, keys: [String], requiredKeys: [String] = [],
    parse: @escaping @Sendable (inout SectionReader) -> Driver?
  ) {
    self.name = name
    self.keys = keys
    self.requiredKeys = requiredKeys
    self.parse = parse
  }

  /// The parser of the driver `name`, among `parsers`, if there is one.
  static func named(_ name: String, among parsers: [Self]) -> Self? {
    parsers.first { $0.name == name }
  }
}
