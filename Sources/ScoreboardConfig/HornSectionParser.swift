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
    let duration =
      reader.duration("duration", in: .milliseconds(10)...(.seconds(30))) ?? .milliseconds(1500)
    let holdLimit =
      reader.duration("hold-limit", in: .milliseconds(100)...(.seconds(60))) ?? .seconds(5)
    let clicks = reader.boolean("click") ?? false
    let clickDuration =
      reader.duration("click-duration", in: .milliseconds(1)...(.milliseconds(50)))
      ?? .milliseconds(5)
    guard !reader.hasErrors, let driver else { return nil }
    let spec = HornSpec(name: name, clocks: clockNames, duration: duration, holdLimit: holdLimit)
    return Horn(
      configuration: HornConfiguration(
        name: name, driver: driver, spec: spec, clicks: clicks, clickDuration: clickDuration,
        line: reader.section.line),
      gpioLines: reader.gpioLineUses)
  }
}
