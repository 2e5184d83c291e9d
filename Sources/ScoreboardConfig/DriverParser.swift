/// How one kind of driver (`driver = terminal`) reads its own keys from its section.
struct DriverParser<Driver>: Sendable {
  /// The value of `driver` that selects it.
  var name: String
  /// The keys only this driver has.
  var keys: [String]
  /// Reads those keys; problems are reported to the reader.
  var parse: @Sendable (inout SectionReader) -> Driver

  /// The parser of the driver `name`, among `parsers`, if there is one.
  static func named(_ name: String, among parsers: [Self]) -> Self? {
    parsers.first { $0.name == name }
  }
}
