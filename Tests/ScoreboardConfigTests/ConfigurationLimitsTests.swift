import ScoreboardConfig
import ScoreboardCore
import Testing

/// A file with many mistakes is checked in time that grows with its size, and what is
/// said about it stays short: names listed, suggestions looked for, overlaps and
/// problems shown are all bounded.
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
    let keymaps = (1...30).map { "[keymap k\($0)]\n" }.joined()
    let text = Self.base + keymaps + "[keypad pad]\ndriver = terminal\nkeymap = nope\n"
    let expected =
      "unknown keymap 'nope'; expected "
      + (1...24).map { "'k\($0)'" }.joined(separator: ", ") + " or 6 others"
    #expect(Self.problems(in: text).map(\.message) == [expected])
  }

  @Test func suggestionsStopOnceTheirBudgetIsSpent() throws {
    // Every kernel key name with one letter too many: each is a typo of a real name.
    let names = KeyCode.allNames.map { $0 + "X" }
    let keymap = "[keymap pad]\n" + names.map { "\($0) = commit\n" }.joined()
    let problems = Self.problems(in: Self.base + keymap)
    #expect(problems.count == names.count)
    let first = try #require(problems.first)
    let last = try #require(problems.last)
    #expect(first.message == "unknown key '\(names[0])'; did you mean '\(KeyCode.allNames[0])'?")
    #expect(
      last.message
        == "unknown key '\(names[names.count - 1])'; expected 'repeat' or a kernel key name "
        + "such as KEY_KP7, BTN_0, shift+KEY_TAB or long+BTN_0")
  }

  @Test func anOverlapIsReportedWithTheFieldThatTookTheCells() {
    let text =
      Self.base + "[field away]\nposition = 1\ndigits = 2\n[field extra]\nposition = 2\n"
      + "digits = 1\n"
    #expect(
      Self.problems(in: text).map(\.description) == [
        "demo.conf:8: [field away] position: overlaps field 'home' on display 'main': "
          + "this field takes cells 1 to 2, 'home' takes cells 1 to 2",
        "demo.conf:11: [field extra] position: overlaps field 'home' on display 'main': "
          + "this field takes cell 2, 'home' takes cells 1 to 2",
      ])
  }

  @Test func aLongListOfProblemsEndsWithHowManyMore() {
    let text = Self.base + (1...150).map { "not a key \($0)\n" }.joined()
    let lines = Self.description(of: text).split(separator: "\n")
    #expect(lines.count == ConfigurationError.describedDiagnostics + 1)
    #expect(
      lines.first == "demo.conf:7: [field home]: expected 'key = value', found \"not a key 1\"")
    #expect(lines.last == "demo.conf: 50 more problems not shown")
  }

  /// A megabyte of every mistake that once took time in the square of its count:
  /// unknown key names, fields naming unknown displays and keymaps unknown fields,
  /// fields on one cell, keypads with errors, templates naming fields elsewhere.
  @Test(.timeLimit(.minutes(1))) func aMegabyteOfMistakesIsCheckedQuickly() {
    var sections: [String] = [Self.base]
    for index in 0..<4000 {
      sections.append("[display d\(index)]\ndriver = terminal\ndigits = 4\n")
      sections.append("[field f\(index)]\ndisplay = d\(index % 7)\nposition = 1\ndigits = 2\n")
      sections.append("[field g\(index)]\ndisplay = nowhere\n")
      sections.append(
        "[keymap k\(index)]\nKEY_Q\(index) = select h\(index)\nlong+KEY_A = add i\(index) +1\n")
      sections.append("[keypad p\(index)]\ndriver = terminal\nkeymap = k\(index % 3)\n")
      sections.append("[keypad q\(index)]\ndriver = nope\nkeymap = k\(index % 3)\n")
      sections.append(
        "[display t\(index)]\ndriver = serial-text\nport = /dev/ttyS\(index)\n"
          + "template = {f\(index)}{x\(index)}\n")
    }
    let text = sections.joined()
    #expect(text.utf8.count > 1_000_000)
    let lines = Self.description(of: text).split(separator: "\n")
    #expect(lines.count == ConfigurationError.describedDiagnostics + 1)
  }
}
