import ScoreboardConfig
import ScoreboardCore
import Testing

/// A file with many mistakes is checked in time that grows with its size, and what is
/// said about it stays short: names listed and problems shown are bounded.
@Suite struct ConfigurationLimitsTests {
  /// One display and one field, without a problem: three lines after it start at line 7.
  static let base = MalformedConfiguration.base

  static func problems(in text: String) -> [Diagnostic] {
    do {
      _ = try Configuration.parse(text, path: "demo.conf")
      return []
    } catch {
      return error.diagnostics
    }
  }

  static func description(of text: String) -> String {
    do {
      _ = try Configuration.parse(text, path: "demo.conf")
      return ""
    } catch {
      return error.description
    }
  }

  @Test func aLongListOfNamesShowsTheFirstAndHowManyOthers() {
    let keymaps = (1...25).map { "[keymap k\($0)]\n" }.joined()
    let text = Self.base + keymaps + "[keypad pad]\ndriver = terminal\nkeymap = nope\n"
    let expected =
      "unknown keymap 'nope'; expected "
      + (1...20).map { "'k\($0)'" }.joined(separator: ", ") + " or 5 others"
    #expect(Self.problems(in: text).map(\.message) == [expected])
  }

  @Test func aLongListOfProblemsEndsWithHowManyMore() {
    let text = Self.base + (1...150).map { "not a key \($0)\n" }.joined()
    let lines = Self.description(of: text).split(separator: "\n")
    #expect(lines.count == ConfigurationError.describedDiagnostics + 1)
    #expect(
      lines.first == "demo.conf:7: [field home]: expected 'key = value', found \"not a key 1\"")
    #expect(lines.last == "demo.conf: 50 more problems not shown")
  }
}
