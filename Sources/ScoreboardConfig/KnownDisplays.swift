/// The displays a field or label may name: those read without error, and the names of
/// every `[display NAME]` section, including those with errors (whose names are not
/// reported as unknown).
struct KnownDisplays {
  /// The displays read without error, by name.
  let byName: [String: DisplayConfiguration]
  /// The names of every `[display NAME]` section, in file order.
  let names: [String]
  /// `names`, to look names up in.
  let nameSet: Set<String>

  init(_ displays: [DisplayConfiguration], names: [String]) {
    byName = Dictionary(uniqueKeysWithValues: displays.map { ($0.name, $0) })
    self.names = names
    nameSet = Set(names)
  }
}
