import ScoreboardCore
import TestSupport
import Testing

@Suite struct ActionTests {
  @Test(arguments: [
    ("digit 7", Action.digit(7)),
    ("backspace", .backspace), ("commit", .commit), ("cancel", .cancel),
    ("next", .next), ("previous", .previous), ("select home", .select(field: "home")),
    ("add +1", .add(field: nil, amount: 1)), ("add away -2", .add(field: "away", amount: -2)),
    ("add home 3", .add(field: "home", amount: 3)),
    ("up", .add(field: nil, amount: 1)), ("down", .add(field: nil, amount: -1)),
    ("set period OT", .set(field: "period", value: "OT")), ("undo", .undo), ("reset", .reset),
    ("brightness up", .brightness(.by(1))), ("brightness -3", .brightness(.by(-3))),
    ("brightness 12", .brightness(.to(12))), ("blank", .blank(.toggle)),
    ("blank on", .blank(.on)), ("BLANK off", .blank(.off)), ("  digit\t0 ", .digit(0)),
  ])
  func parses(text: String, action: Action) throws {
    #expect(try Action(parsing: text) == action)
    #expect(try Action(parsing: action.description) == action, "the description parses back")
  }

  @Test(arguments: [
    ("", "expected an action, found nothing"),
    ("digit 10", "'digit' takes one digit 0-9, as in 'digit 7'"),
    ("digit", "'digit' takes one digit 0-9, as in 'digit 7'"),
    ("commit now", "'commit' takes no argument"),
    ("add home", "'add' takes an optional field and a signed amount, as in 'add home +1'"),
    ("set home", "'set' takes a field and a value, as in 'set home 12'"),
    ("add home +-1", "'add' takes an optional field and a signed amount, as in 'add home +1'"),
    (
      "add -9223372036854775808",
      "'add' takes an optional field and a signed amount, as in 'add home +1'"
    ),
    ("brightness -9223372036854775808", "'brightness' takes up, down, +N, -N or a level 0-15"),
    ("brightness 16", "'brightness' takes up, down, +N, -N or a level 0-15"),
    ("blank maybe", "'blank' takes nothing, on, off or toggle"),
  ])
  func rejects(text: String, message: String) {
    #expect(throws: ActionSyntaxError(description: message)) {
      try Action(parsing: text)
    }
  }

  @Test func unknownActionsListTheKnownOnes() {
    #expect {
      try Action(parsing: "explode")
    } throws: { error in
      (error as? ActionSyntaxError)?.description.hasPrefix(
        "unknown action 'explode'; expected one of: digit 0-9") == true
    }
  }
}

@Suite struct KeyTests {
  @Test(
    arguments: [
      ("KEY_KP7", 71), ("KEY_KPENTER", 96), ("KEY_NUMLOCK", 69), ("KEY_BACKSPACE", 14),
      ("KEY_ESC", 1), ("BTN_0", 0x100),
    ] as [(String, UInt16)])
  func kernelNamesHaveTheirCodes(name: String, code: UInt16) {
    #expect(KeyCode(name: name)?.rawValue == code)
    #expect(KeyCode(rawValue: code).name == name)
    #expect(KeyCode(rawValue: code).hasName)
  }

  /// Codes between the kernel's names and past the last one have none.
  @Test(arguments: [84 as UInt16, 0x2ff, 0x300, 0xffff])
  func codesWithoutAKernelNameHaveNone(code: UInt16) {
    #expect(!KeyCode(rawValue: code).hasName)
    #expect(KeyCode(rawValue: code).name == nil)
  }

  @Test func keysParseWithAShiftPrefix() {
    #expect(Key(parsing: "shift+KEY_TAB") == Key("KEY_TAB", shift: true)!)
    #expect(Key(parsing: "KEY_KP7") == Key("KEY_KP7")!)
    #expect(Key(parsing: "KEY_KP_7") == nil)
    #expect(Key(parsing: "long+BTN_0") == Key("BTN_0", long: true)!)
    #expect(Key(parsing: "Long+Shift+KEY_A")?.description == "long+shift+KEY_A")
  }

  /// A key is its code: the kernel's names of one code are one key, written with the
  /// header's first name.
  @Test func namesOfOneCodeAreOneKey() {
    #expect(Key("BTN_MISC")! == Key("BTN_0")!)
    #expect(Key("KEY_SCREENLOCK")! == Key("KEY_COFFEE")!)
    #expect(Key("KEY_SCREENLOCK")!.code == KeyCode(rawValue: 152))
    #expect(Key(parsing: "shift+KEY_SCREENLOCK")?.description == "shift+KEY_COFFEE")
    #expect(Key("KEY_KP7", shift: true)! != Key("KEY_KP7")!)
    #expect(Key("KEY_NOT_A_KEY") == nil)
  }

  @Test func autorepeatRepeatsOnlyRepeatingKinds() {
    let keymap = Keymap(
      name: "pad",
      bindings: [Key("KEY_KPPLUS")!: .add(field: nil, amount: 1), Key("KEY_KPENTER")!: .commit])
    let plus = KeyEvent(keypad: "pad", key: Key("KEY_KPPLUS")!, kind: .autorepeat, time: .zero)
    var enter = plus
    enter.key = Key("KEY_KPENTER")!
    #expect(keymap.action(for: plus) == .add(field: nil, amount: 1))
    #expect(keymap.binding(for: plus).map { keymap.bindings[$0].key } == Key("KEY_KPPLUS")!)
    #expect(keymap.action(for: enter) == nil, "commit does not repeat")
    #expect(keymap.binding(for: enter) == nil)
    let none = Keymap(name: "pad", bindings: keymap.bindings, repeating: [])
    #expect(none.action(for: plus) == nil)
    #expect(none.binding(for: plus) == nil)
  }

  @Test func keymapsActOnPressAndRepeatOnly() {
    let keymap = Keymap(name: "pad", bindings: [Key("KEY_KP1")!: .digit(1)])
    let press = KeyEvent(keypad: "pad", key: Key("KEY_KP1")!, kind: .press, time: .zero)
    var release = press
    release.kind = .release
    #expect(keymap.action(for: press) == .digit(1))
    #expect(keymap.binding(for: press).map { keymap.bindings[$0].value } == .digit(1))
    #expect(keymap.action(for: release) == nil)
    #expect(keymap.binding(for: release) == nil)
    var unbound = press
    unbound.key = Key("KEY_KP2")!
    #expect(keymap.binding(for: unbound) == nil)
  }

  /// Every key a keymap binds finds its action, shifted and long ones apart, and no other
  /// key finds any; also once the bindings have changed.
  @Test(arguments: [0, 1, 2, 7, 40])
  func aKeymapFindsEveryBoundKeyAndNoOther(count: Int) {
    var random = SeededRandom(seed: UInt64(count))
    func anyKey() -> Key {
      Key(
        KeyCode(rawValue: UInt16(random.next() % 800)), shift: random.next() % 2 == 0,
        long: random.next() % 3 == 0)
    }
    var bindings: [Key: Action] = [:]
    while bindings.count < count {
      bindings[anyKey()] = .digit(Int(random.next() % 10))
    }
    var keymap = Keymap(name: "pad", bindings: bindings)
    func expectLookups() {
      for code in 0..<800 {
        for (shift, long) in [(false, false), (true, false), (false, true), (true, true)] {
          let key = Key(KeyCode(rawValue: UInt16(code)), shift: shift, long: long)
          let press = KeyEvent(keypad: "pad", key: key, kind: .press, time: .zero)
          let found = keymap.binding(for: press).map { keymap.bindings[$0] }
          #expect(found?.key == (bindings[key] == nil ? nil : key), "\(key)")
          #expect(found?.value == bindings[key], "\(key)")
        }
      }
    }
    expectLookups()
    let added = anyKey()
    bindings[added] = .commit
    keymap.bindings[added] = .commit
    if let removed = bindings.keys.first(where: { $0 != added }) {
      bindings[removed] = nil
      keymap.bindings[removed] = nil
    }
    expectLookups()
  }

  @Test func keymapsOfTheSameBindingsAreEqual() {
    var one = Keymap(name: "pad", bindings: [:])
    var other = Keymap(name: "pad", bindings: [:])
    for code in 1...30 {
      one.bindings[Key(KeyCode(rawValue: UInt16(code)))] = .digit(code % 10)
      other.bindings[Key(KeyCode(rawValue: UInt16(31 - code)))] = .digit((31 - code) % 10)
    }
    #expect(one == other)
    #expect(one.hashValue == other.hashValue)
    other.bindings[Key(KeyCode(rawValue: 1))] = .commit
    #expect(one != other)
  }
}
