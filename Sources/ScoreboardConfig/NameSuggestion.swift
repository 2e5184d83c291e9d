/// Finds the known name a mistyped one was most likely meant to be.
enum NameSuggestion {
  /// The candidate nearest to `name` by edit distance, ignoring case and treating `_` and
  /// `-` alike; nil when none is close enough to be a likely typo.
  static func nearest(to name: String, among candidates: [String]) -> String? {
    let typed = normalized(name)
    let tolerance = max(1, typed.count / 3)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, normalized(candidate))
      if distance <= tolerance && distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  /// The message for a reference to a section that does not exist: `unknown display
  /// 'mian'; did you mean 'main'?`, or the names there are when none is close.
  /// `context` follows the name: ` in "add hme +1"`.
  static func unknownNameMessage(
    kind: SectionKind, name: String, known: [String], context: String = ""
  ) -> String {
    let problem = "unknown \(kind) '\(name)'\(context)"
    if let suggestion = nearest(to: name, among: known) {
      return problem + "; did you mean '\(suggestion)'?"
    }
    if known.isEmpty {
      return problem + "; there is no [\(kind) NAME] section"
    }
    return problem + "; expected \(Listing.joined(known.map { "'\($0)'" }))"
  }

  /// The optimal string alignment distance: how many characters to insert, delete or
  /// replace, or neighbours to swap, to turn `source` into `target`.
  private static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
    guard !source.isEmpty, !target.isEmpty else { return max(source.count, target.count) }
    // distances[i][j]: the distance between the first i characters of source and the
    // first j of target.
    var distances = (0...source.count).map { row in
      (0...target.count).map { column in row == 0 ? column : (column == 0 ? row : 0) }
    }
    for i in 1...source.count {
      for j in 1...target.count {
        let replacement = source[i - 1] == target[j - 1] ? 0 : 1
        var distance = min(
          distances[i - 1][j] + 1, distances[i][j - 1] + 1,
          distances[i - 1][j - 1] + replacement)
        if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
          distance = min(distance, distances[i - 2][j - 2] + 1)
        }
        distances[i][j] = distance
      }
    }
    return distances[source.count][target.count]
  }

  private static func normalized(_ name: String) -> [Character] {
    Array(name.lowercased().map { $0 == "_" ? "-" : $0 })
  }
}
