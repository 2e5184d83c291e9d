import ScoreboardCore

/// Finds the known name a mistyped one was most likely meant to be.
///
/// Comparing two names costs the product of their lengths, and a file may hold many
/// unknown names and many names to compare them with. So the suggestions for one file
/// share a budget (`fileBudget`): each name compared, and each cell of an edit-distance
/// table, spends one unit; once it is spent, messages list the known names instead of
/// suggesting one.
struct NameSuggestion {
  /// The work the suggestions of one file may take: a few hundred mistyped key names,
  /// well under a second even in a debug build.
  static let fileBudget = 5_000_000

  /// The work left.
  private(set) var budget: Int

  /// Suggestions with `budget` units of work.
  init(budget: Int = NameSuggestion.fileBudget) {
    self.budget = budget
  }

  /// Names to compare with, prepared once: for a list such as the kernel's key names
  /// that every unknown key is compared with.
  struct Candidates: Sendable {
    let names: [String]
    fileprivate let forms: [[UInt32]]

    init(_ names: [String]) {
      self.names = names
      forms = names.map(NameSuggestion.normalized)
    }
  }

  /// The kernel's key and button names.
  static let kernelKeyNames = Candidates(KeyCode.allNames)

  /// The candidate nearest to `name` by edit distance, ignoring case and treating `_` and
  /// `-` alike; nil when none is close enough to be a likely typo, or the budget is spent
  /// (then the nearest one found so far, if any).
  mutating func nearest(to name: String, among candidates: [String]) -> String? {
    nearest(to: name, count: candidates.count, preparing: true) { index in
      (candidates[index], Self.normalized(candidates[index]))
    }
  }

  /// The nearest of prepared `candidates`; see `nearest(to:among:)`.
  mutating func nearest(to name: String, among candidates: Candidates) -> String? {
    nearest(to: name, count: candidates.names.count, preparing: false) { index in
      (candidates.names[index], candidates.forms[index])
    }
  }

  /// The nearest of `count` candidates that `candidate` gives; `preparing` says that it
  /// prepares each one's form, which costs its length.
  private mutating func nearest(
    to name: String, count: Int, preparing: Bool,
    candidate: (Int) -> (name: String, form: [UInt32])
  ) -> String? {
    let typed = Self.normalized(name)
    let tolerance = max(1, typed.count / 3)
    var best: (candidate: String, distance: Int)?
    for index in 0..<count {
      guard budget > 0 else { break }
      let (known, form) = candidate(index)
      budget -= 1 + (preparing ? form.count : 0)
      // Only a nearer candidate counts, and the distance is at least the difference in
      // length.
      let bound = min(tolerance, (best?.distance ?? Int.max) - 1)
      guard abs(form.count - typed.count) <= bound else { continue }
      budget -= typed.count * form.count
      if let distance = Self.editDistance(typed, form, atMost: bound) {
        best = (known, distance)
      }
    }
    return best?.candidate
  }

  /// Whether `name` is near enough to `candidate` to be a typo of it.
  static func isNear(_ name: String, _ candidate: String) -> Bool {
    var one = NameSuggestion()
    return one.nearest(to: name, among: [candidate]) != nil
  }

  /// The message for a reference to a section that does not exist: `unknown display
  /// 'mian'; did you mean 'main'?`, or the names there are when none is close.
  /// `context` follows the name: ` in "add hme +1"`.
  mutating func unknownNameMessage(
    kind: SectionKind, name: String, known: [String], context: String = ""
  ) -> String {
    let problem = "unknown \(kind) '\(name)'\(context)"
    if let suggestion = nearest(to: name, among: known) {
      return problem + "; did you mean '\(suggestion)'?"
    }
    if known.isEmpty {
      return problem + "; there is no [\(kind) NAME] section"
    }
    return problem + "; expected \(Listing.joined(known.lazy.map { "'\($0)'" }))"
  }

  /// The optimal string alignment distance: how many characters to insert, delete or
  /// replace, or neighbours to swap, to turn `source` into `target`; nil when it is more
  /// than `bound`, which is known as soon as two rows of the table exceed it.
  private static func editDistance(_ source: [UInt32], _ target: [UInt32], atMost bound: Int)
    -> Int?
  {
    guard !source.isEmpty, !target.isEmpty else {
      let distance = max(source.count, target.count)
      return distance <= bound ? distance : nil
    }
    // Rows i - 2, i - 1 and i of the table; row[j] is the distance between the first i
    // characters of source and the first j of target.
    var beforePrevious = [Int](repeating: 0, count: target.count + 1)
    var previous = beforePrevious
    for j in previous.indices {
      previous[j] = j
    }
    var current = beforePrevious
    var previousMinimum = 0
    for i in 1...source.count {
      current[0] = i
      var minimum = i
      for j in 1...target.count {
        let replacement = source[i - 1] == target[j - 1] ? 0 : 1
        var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + replacement)
        if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
          distance = min(distance, beforePrevious[j - 2] + 1)
        }
        current[j] = distance
        minimum = min(minimum, distance)
      }
      // Every alignment passes through row i or row i - 1 (a swap skips one row), and
      // distances never decrease along it.
      if minimum > bound && previousMinimum > bound {
        return nil
      }
      previousMinimum = minimum
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    let distance = previous[target.count]
    return distance <= bound ? distance : nil
  }

  /// The name as compared: its Unicode scalars in lowercase, with `_` as `-`.
  fileprivate static func normalized(_ name: String) -> [UInt32] {
    name.lowercased().unicodeScalars.map { $0 == "_" ? 0x2D : $0.value }
  }
}
