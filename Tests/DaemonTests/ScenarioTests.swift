import Testing

/// The text scenarios of `Tests/Scenarios`, each a test case: the configuration through
/// the real parser, the steps through the daemon's logic in virtual time.
@Suite struct ScenarioTests {
  @Test(arguments: Scenario.files)
  func scenario(_ file: String) throws {
    let scenario = try Scenario.load(file)
    var runner = try ScenarioRunner(scenario, file: file)
    for failure in runner.run(scenario.steps) {
      Issue.record(Comment(rawValue: failure))
    }
  }

  @Test func thereAreScenariosToRun() {
    #expect(Scenario.files.count >= 40, "the scenarios are read from \(Scenario.folder)")
  }
}

/// The scenario format's own rules: errors that name the line, and failures that name
/// what was there instead.
@Suite struct ScenarioFormatTests {
  static let configuration = """
    [display main]
    driver = terminal
    digits = 2

    [field home]
    position = 1
    digits = 2

    [keypad numpad]
    driver = evdev
    device = /dev/input/event0
    keymap = numpad

    [keymap numpad]
    KEY_H = add home +1
    """

  static func failures(_ steps: String) throws -> [String] {
    let scenario = try Scenario(parsing: configuration + "\n---\n" + steps, file: "test")
    var runner = try ScenarioRunner(scenario, file: "test")
    return runner.run(scenario.steps)
  }

  @Test func aScenarioThatHoldsHasNoFailures() throws {
    #expect(try Self.failures("1 key KEY_H\n1 expect main \" 1\"\n+1 expect value home 1") == [])
  }

  @Test func aFailureNamesTheLineTheTimeAndWhatWasThere() throws {
    let failures = try Self.failures("1.5 key KEY_H\n+0.25 expect main \" 2\"")
    #expect(failures == ["test:18 at 1.75 s: main shows \" 1\", expected \" 2\""])
  }

  @Test func anEventNotReportedFails() throws {
    let failures = try Self.failures("1 key KEY_H\n2 expect event value home 2")
    #expect(
      failures == [
        "test:18 at 2.0 s: no event 'value home 2'; came since the last one expected: value home 1"
      ])
  }

  @Test(arguments: [
    ("1 key KEY_NOPE", "test:17: expected 'key NAME [down|up]' with a kernel key name"),
    (
      "x key KEY_H",
      "test:17: 'x' is not a time (seconds, like 1.25, or +0.1 after the line before)"
    ),
    ("2 key KEY_H\n1 key KEY_H", "test:18: 1 is before the line before"),
    ("1 jump", "test:17: expected key, type, ctl or expect, not 'jump'"),
    (
      "1 ctl fly home",
      "test:17: 'fly home' is not a control request: unknown command 'fly'; try 'help'"
    ),
    ("1 expect horn main loud", "test:17: expected 'expect horn NAME on|off'"),
  ])
  func aBadLineIsNamed(steps: String, message: String) {
    do {
      _ = try Self.failures(steps)
      Issue.record("'\(steps)' was taken")
    } catch {
      #expect("\(error)" == message)
    }
  }
}
