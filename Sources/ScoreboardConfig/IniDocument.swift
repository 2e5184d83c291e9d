/// One `key = value` line of an INI file.
struct IniEntry: Hashable {
  /// The key as written.
  var key: String
  /// The value without surrounding whitespace and comments.
  var value: String
  /// The line, from 1.
  var line: Int
}

/// One `[section]` of an INI file with the entries under it.
struct IniSection: Hashable {
  /// The text between the brackets, with runs of whitespace made one space (`field home`).
  var title: String
  /// The line of the header.
  var line: Int
  /// False when the header has no `]`: the section only collects the lines under it,
  /// which are then not checked, since what they belong to is unknown.
  var isComplete: Bool
  /// The entries in file order.
  var entries: [IniEntry] = []
}

/// An INI file as `IniReader` reads it: sections in file order, the entries that come before
/// the first section, and the lines that are not valid INI.
struct IniDocument {
  /// The sections in file order, including those without keys.
  var sections: [IniSection] = []
  /// Entries before the first section header.
  var entriesBeforeFirstSection: [IniEntry] = []
  /// The lines that are not valid INI, in line order.
  var diagnostics: [Diagnostic] = []
  /// The number of lines in the file.
  var lineCount = 0
}
