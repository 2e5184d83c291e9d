import ScoreboardCore

extension GPIOMatrixKeypadOptions {
  /// The keys of a gpio-matrix keypad.
  static let keys = ["rows", "columns", "keys", "debounce"]

  /// Reads the keys of a gpio-matrix keypad; nil when the lines or the keys are missing or
  /// wrong, or there is not a key for each row and column.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let rows = reader.gpioLines("rows", counts: 1...maximumLines)
    let columns = reader.gpioLines("columns", counts: 1...maximumLines)
    let keys = matrixKeys(reader: &reader)
    let debounce = reader.duration("debounce", in: .zero...(.seconds(1)))
    guard let rows, let columns, let keys else { return nil }
    let count = rows.count * columns.count
    guard keys.count == count else {
      reader.report(
        "expected \(count) key names, row by row (\(Listing.count(rows.count, "row")) of "
          + "\(Listing.count(columns.count, "column"))), found \(keys.count)", key: "keys")
      return nil
    }
    return Self(
      rows: rows, columns: columns, keys: keys, debounce: debounce ?? .milliseconds(20))
  }

  /// `keys`: kernel key names separated by spaces, each once.
  private static func matrixKeys(reader: inout SectionReader) -> [Key]? {
    guard let value = reader.entry("keys")?.value else { return nil }
    let words = value.words()
    guard !words.isEmpty else {
      reader.report(
        "expected kernel key names separated by spaces, row by row, such as "
          + "KEY_1 KEY_2 KEY_3, found nothing", key: "keys")
      return nil
    }
    var keys: [Key] = []
    for word in words {
      guard let key = KernelKeyName.unprefixedKey(word) else {
        reader.report(
          KernelKeyName.unprefixedNameMessage(
            word, suggestions: &reader.suggestions, expected: "a kernel key name such as KEY_1"),
          key: "keys")
        continue
      }
      if keys.contains(key) {
        reader.report("expected each key once, found \(key) twice", key: "keys")
      } else {
        keys.append(key)
      }
    }
    return keys.count == words.count ? keys : nil
  }
}
