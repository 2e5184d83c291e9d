import ScoreboardCore
import TestSupport

@testable import ScoreboardConfig

/// A text scenario (`Tests/Scenarios/*.scenario`, the format is in the README there): a
/// configuration, then timed steps (keys, control requests) and what must be true at
/// their times (a display's text, events, answers, horns).
struct Scenario {
  /// The configuration's text, `use`d files first.
  var configuration: String
  var steps: [Step]

  /// One timed line after `---`.
  struct Step {
    /// The line in the scenario file.
    var line: Int
    var time: Instant
    var action: Action
  }

  /// What a step does or checks.
  enum Action: Equatable {
    /// A key goes down, comes up, or both (`key KEY_KP1 down`, `key KEY_KP1`).
    case key(Key, down: Bool, up: Bool)
    /// Keys pressed and released one after the other at the same instant.
    case type([Key])
    /// A control request, answered by the logic.
    case control(ControlRequest)
    /// A display shows `text`, as `Frame.text` reads it.
    case expectDisplay(String, text: String)
    /// An event (`value home 12`, without `event `) came since the last one expected.
    case expectEvent(String)
    /// No event came since the last one expected.
    case expectNoEvent
    /// The last control request was answered `line`.
    case expectAnswer(String)
    /// A horn sounds, or not.
    case expectHorn(String, sounding: Bool)
    /// A field's committed value reads `text`.
    case expectValue(String, text: String)
    /// A key or a request was refused since the last time this was checked.
    case expectRefused
    /// A display's indicator lights: `1` lit, `0` dark, one per light.
    case expectLights(String, pattern: String)
  }

  /// Where the scenarios and their shared configurations are.
  static let folder: String = {
    var path = #filePath
    // Tests/DaemonTests/Scenario.swift -> Tests/Scenarios
    for _ in 0..<2 {
      path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }
    return path + "/Scenarios"
  }()

  /// The names of the scenario files, sorted.
  static var files: [String] {
    fileNames(in: folder).filter { $0.hasSuffix(".scenario") }
  }

  /// Reads the scenario file `name`.
  static func load(_ name: String) throws -> Scenario {
    guard let text = readTextFile(folder + "/" + name) else {
      throw ScenarioError("\(name): cannot be read")
    }
    return try Scenario(parsing: text, file: name)
  }

  /// Parses a scenario's text; errors name `file` and the line.
  init(parsing text: String, file: String) throws {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let separator = lines.firstIndex(where: { $0.trimmed() == "---" }) else {
      throw ScenarioError("\(file): no line '---' ends the configuration")
    }
    var configuration = ""
    var ownStart = 0
    for (index, line) in lines[..<separator].enumerated() {
      let words = line.trimmed().split(separator: " ", maxSplits: 1)
      if words.first == "use", words.count == 2 {
        let used = words[1].trimmed()
        // `use example NAME.conf`: a shipped example, as users copy it.
        let path =
          used.hasPrefix("example ")
          ? Self.folder + "/../../Config/examples/"
            + String(used.dropFirst("example ".count)).trimmed()
          : Self.folder + "/configurations/" + used
        guard let included = readTextFile(path) else {
          throw ScenarioError("\(file):\(index + 1): no configuration '\(used)'")
        }
        configuration += included + "\n"
        ownStart = index + 1
      }
    }
    // The file's own text keeps its line numbers after the used files' text.
    configuration += lines[ownStart..<separator].joined(separator: "\n")
    self.configuration = configuration
    steps = []
    var previous = Instant.zero
    for index in lines.indices.dropFirst(separator + 1) {
      let line = lines[index].trimmed()
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      let number = index + 1
      let (timeText, rest) = line.splitOnce()
      guard let time = Self.time(timeText, after: previous) else {
        throw ScenarioError(
          "\(file):\(number): '\(timeText)' is not a time (seconds, like 1.25, or +0.1 "
            + "after the line before)")
      }
      guard time >= previous else {
        throw ScenarioError("\(file):\(number): \(timeText) is before the line before")
      }
      previous = time
      do {
        steps.append(Step(line: number, time: time, action: try Self.action(rest)))
      } catch {
        throw ScenarioError("\(file):\(number): \(error.description)")
      }
    }
  }

  /// `1.25` (seconds from the start) or `+0.1` (after `previous`), to the nanosecond.
  static func time(_ text: String, after previous: Instant) -> Instant? {
    let relative = text.hasPrefix("+")
    let number = relative ? text.dropFirst() : Substring(text)
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let seconds = Int64(parts[0]), seconds >= 0,
      parts.count == 1 || (1...9).contains(parts[1].count)
    else { return nil }
    var nanoseconds = seconds * 1_000_000_000
    if parts.count == 2 {
      let fraction = String(parts[1]) + String(repeating: "0", count: 9 - parts[1].count)
      guard fraction.allSatisfy(\.isASCIIDigit), let value = Int64(fraction) else { return nil }
      nanoseconds += value
    }
    return relative ? previous + .nanoseconds(nanoseconds) : Instant(nanoseconds: nanoseconds)
  }

  /// The action of a step's text after its time.
  static func action(_ text: String) throws(ScenarioError) -> Action {
    let (verb, rest) = text.splitOnce()
    switch verb {
    case "key":
      let words = rest.split(separator: " ").map(String.init)
      guard (1...2).contains(words.count), let key = Key(parsing: words[0]) else {
        throw ScenarioError("expected 'key NAME [down|up]' with a kernel key name")
      }
      switch words.count == 2 ? words[1] : "" {
      case "": return .key(key, down: true, up: true)
      case "down": return .key(key, down: true, up: false)
      case "up": return .key(key, down: false, up: true)
      default: throw ScenarioError("expected 'down' or 'up' after the key, not '\(words[1])'")
      }
    case "type":
      let names = rest.split(separator: " ").map(String.init)
      var keys: [Key] = []
      for name in names {
        guard let key = Key(parsing: name) else {
          throw ScenarioError("'\(name)' is not a kernel key name")
        }
        keys.append(key)
      }
      guard !keys.isEmpty else { throw ScenarioError("expected 'type KEY...'") }
      return .type(keys)
    case "ctl":
      do {
        return .control(try ControlRequest(parsing: rest))
      } catch {
        throw ScenarioError("'\(rest)' is not a control request: \(error)")
      }
    case "expect":
      return try expectation(rest)
    default:
      throw ScenarioError("expected key, type, ctl or expect, not '\(verb)'")
    }
  }

  private static func expectation(_ text: String) throws(ScenarioError) -> Action {
    let (what, rest) = text.splitOnce()
    switch what {
    case "event":
      guard !rest.isEmpty else { throw ScenarioError("expected 'expect event WHAT'") }
      return .expectEvent(rest)
    case "no" where rest == "event":
      return .expectNoEvent
    case "answer":
      return .expectAnswer(rest)
    case "horn":
      let words = rest.split(separator: " ").map(String.init)
      guard words.count == 2, ["on", "off"].contains(words[1]) else {
        throw ScenarioError("expected 'expect horn NAME on|off'")
      }
      return .expectHorn(words[0], sounding: words[1] == "on")
    case "value":
      let (field, value) = rest.splitOnce()
      guard !field.isEmpty, !value.isEmpty else {
        throw ScenarioError("expected 'expect value FIELD TEXT'")
      }
      return .expectValue(field, text: value)
    case "refused" where rest.isEmpty:
      return .expectRefused
    case "lights":
      let (display, pattern) = rest.splitOnce()
      guard !display.isEmpty, !pattern.isEmpty, pattern.allSatisfy({ $0 == "0" || $0 == "1" })
      else { throw ScenarioError("expected 'expect lights DISPLAY 1000...' (1 lit, 0 dark)") }
      return .expectLights(display, pattern: pattern)
    default:
      guard !what.isEmpty, rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else {
        throw ScenarioError(
          "expected 'expect DISPLAY \"TEXT\"', or expect event, no event, answer, horn, "
            + "value, refused or lights")
      }
      return .expectDisplay(what, text: String(rest.dropFirst().dropLast()))
    }
  }
}

/// What is wrong with a scenario file, or what a scenario found.
struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension String {
  /// The first word and the rest, trimmed.
  fileprivate func splitOnce() -> (String, String) {
    let words = trimmed().split(separator: " ", maxSplits: 1)
    return (words.first.map(String.init) ?? "", words.count > 1 ? words[1].trimmed() : "")
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
