import ScoreboardCore
import ScoreboardSettings

/// Reads a `[horn NAME]` section: `driver = gpio` with `line` and `active-low`, or
/// `driver = terminal`; the clocks whose zero sounds it, for how long, the limit of a
/// held horn key, and the key click.
struct HornSectionParser {
  /// A horn read without error, with the GPIO line it uses.
  struct Horn {
    var configuration: HornConfiguration
    var gpioLines: [GPIOLineUse]
  }

  static let keys = [
    "driver", "line", "active-low", "clocks", "duration", "hold-limit", "click", "click-duration",
    "warnings",
  ]

  /// The clock fields read without error, by name, and every field's name.
  let clocks: [String: ClockFormat]
  let fieldNames: [String]
  /// The fields read without error (a clock whose section has errors is not here).
  var validFieldNames: Set<String> = []

  /// The horn, or nil when something in the section is wrong.
  func parse(name: String, reader: inout SectionReader) -> Horn? {
    reader.reportUnknownKeys(known: Self.keys)
    reader.require("driver")
    let driverName = reader.choice("driver", names: [("gpio", true), ("terminal", false)])
    var driver: HornConfiguration.Driver?
    switch driverName {
    case true?:
      reader.require("line")
      let activeLow = reader.boolean("active-low") ?? false
      if let line = reader.gpioLine("line") {
        driver = .gpio(line: line, activeLow: activeLow)
      }
    case false?:
      for key in ["line", "active-low"] where reader.entry(key) != nil {
        reader.report("applies only to driver = gpio", key: key)
      }
      driver = .terminal
    case nil:
      break
    }
    var clockNames: [String] = []
    if let text = reader.text(
      "clocks", expected: "clock fields separated by spaces, such as game shot")
    {
      for word in text.words() {
        if clocks[word] != nil {
          clockNames.append(word)
        } else if validFieldNames.contains(word) {
          reader.report(
            "field '\(word)' is not a clock (type = clock or shot-clock)", key: "clocks")
        } else if fieldNames.contains(word) {
          continue  // its own section has the error
        } else {
          reader.report(
            reader.suggestions.unknownNameMessage(kind: .field, name: word, known: fieldNames),
            key: "clocks")
        }
      }
    }
    let warnings = self.warnings(reader: &reader)
    let duration =
      reader.duration("duration", in: .milliseconds(10)...(.seconds(30))) ?? .milliseconds(1500)
    let holdLimit =
      reader.duration("hold-limit", in: .milliseconds(100)...(.seconds(60))) ?? .seconds(5)
    let clicks = reader.boolean("click") ?? false
    let clickDuration =
      reader.duration("click-duration", in: .milliseconds(1)...(.milliseconds(50)))
      ?? .milliseconds(5)
    guard !reader.hasErrors, let driver else { return nil }
    let spec = HornSpec(
      name: name, clocks: clockNames, duration: duration, holdLimit: holdLimit,
      warnings: warnings)
    return Horn(
      configuration: HornConfiguration(
        name: name, driver: driver, spec: spec, clicks: clicks, clickDuration: clickDuration,
        line: reader.section.line),
      gpioLines: reader.gpioLineUses)
  }

  /// `warnings = CLOCK TIME ...`: pairs of a clock and the time left on it when the horn
  /// sounds (a timeout's `timeout 10`), each time within the clock's length.
  private func warnings(reader: inout SectionReader) -> [HornSpec.Warning] {
    guard
      let text = reader.text(
        "warnings", expected: "a clock and the time left when the horn sounds, such as timeout 10")
    else { return [] }
    let words = text.words()
    let usage =
      "expected pairs of a clock and the time left on it when the horn sounds, such as "
      + "timeout 10 (or game 1:00 shot 5)"
    guard !words.isEmpty, words.count % 2 == 0 else {
      reader.report(usage + ", found " + Listing.found(text), key: "warnings")
      return []
    }
    var warnings: [HornSpec.Warning] = []
    for pair in stride(from: 0, to: words.count, by: 2) {
      let (name, timeText) = (words[pair], words[pair + 1])
      guard let format = clocks[name] else {
        if validFieldNames.contains(name) {
          reader.report(
            "field '\(name)' is not a clock (type = clock or shot-clock)", key: "warnings")
        } else if !fieldNames.contains(name) {
          reader.report(
            reader.suggestions.unknownNameMessage(kind: .field, name: name, known: fieldNames),
            key: "warnings")
        }
        continue
      }
      guard let left = ClockText.parse(timeText), left > .zero, left < format.length else {
        reader.report(
          "expected a time left on '\(name)' above 0 and below its length, "
            + ClockText.text(format.length, tenths: false, minutes: true) + ", found "
            + Listing.found(timeText), key: "warnings")
        continue
      }
      warnings.append(HornSpec.Warning(clock: name, left: left))
    }
    return warnings
  }
}
