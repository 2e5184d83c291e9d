/// The kind and name of a section, read from its title (`field home`).
struct SectionHeader: Hashable {
  /// What is wrong with a section title.
  struct Problem: Error {
    var message: String
  }

  var kind: SectionKind
  /// The name; empty for `[scoreboard]`.
  var name: String

  /// Reads a title: a kind, then a name unless the kind is `scoreboard`.
  init(title: String) throws(Problem) {
    let words = title.words()
    guard let kindWord = words.first else {
      throw Problem(message: "expected a section kind (\(Self.kindList)), found nothing")
    }
    guard let kind = SectionKind(rawValue: kindWord) else {
      throw Problem(message: "unknown section kind '\(kindWord)'; expected \(Self.kindList)")
    }
    let nameWords = words.dropFirst()
    if !kind.isNamed {
      guard nameWords.isEmpty else {
        throw Problem(
          message: "expected no name after '\(kind)', found \"\(nameWords.joined(separator: " "))\""
        )
      }
    } else if nameWords.isEmpty {
      throw Problem(message: "expected a name after '\(kind)', as in \(kind.exampleHeader)")
    } else if nameWords.count > 1 {
      throw Problem(
        message:
          "expected one name after '\(kind)', found \"\(nameWords.joined(separator: " "))\"")
    } else if !Self.isValidName(nameWords[1]) {
      throw Problem(
        message: "expected a name of a lowercase letter, then lowercase letters, digits, "
          + "'-' or '_', found \"\(nameWords[1])\"")
    }
    self.kind = kind
    self.name = nameWords.first ?? ""
  }

  private static let kindList = Listing.joined(SectionKind.allCases.map(\.rawValue))

  /// Whether `name` starts with a lowercase letter, followed by lowercase letters, digits,
  /// `-` and `_`.
  static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
    }
  }
}
