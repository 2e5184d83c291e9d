extension StringProtocol {
  /// The words of a line of the control protocol, the state file or a keymap action: the
  /// runs of text between spaces and tabs.
  ///
  /// The line is split at the scalars themselves, not at characters: a space followed by
  /// a combining mark is one character, so splitting at characters would join a word
  /// starting with that mark to the word before it when the words are written back with
  /// single spaces.
  var wordsBetweenSpacesAndTabs: [String] {
    String(self).unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
      String(String.UnicodeScalarView($0))
    }
  }
}
