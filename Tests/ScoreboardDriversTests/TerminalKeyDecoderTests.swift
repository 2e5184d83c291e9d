import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct TerminalKeyDecoderTests {
  /// Decodes `chunks` as successive reads and returns the keys as keymaps write them.
  func keys(_ chunks: String...) -> [String] {
    var decoder = TerminalKeyDecoder()
    return chunks.flatMap { decoder.decode(Array($0.utf8)) }.map(\.description)
  }

  @Test(arguments: [
    (
      "0123456789",
      ["KEY_0", "KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8", "KEY_9"]
    ),
    ("az", ["KEY_A", "KEY_Z"]),
    ("AZ", ["shift+KEY_A", "shift+KEY_Z"]),
    ("+-*/.", ["KEY_KPPLUS", "KEY_KPMINUS", "KEY_KPASTERISK", "KEY_KPSLASH", "KEY_KPDOT"]),
    (",= ", ["KEY_COMMA", "KEY_EQUAL", "KEY_SPACE"]),
    ("\r", ["KEY_ENTER"]),
    ("\n", ["KEY_ENTER"]),
    ("\r\n", ["KEY_ENTER"]),
    ("\n\n", ["KEY_ENTER", "KEY_ENTER"]),
    ("\u{7F}\u{08}", ["KEY_BACKSPACE", "KEY_BACKSPACE"]),
    ("\t", ["KEY_TAB"]),
    ("\u{1B}[Z", ["shift+KEY_TAB"]),
    ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", ["KEY_UP", "KEY_DOWN", "KEY_RIGHT", "KEY_LEFT"]),
    ("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD", ["KEY_UP", "KEY_DOWN", "KEY_RIGHT", "KEY_LEFT"]),
    ("\u{1B}[1;2A", ["shift+KEY_UP"]),
    ("\u{1B}[1;5A7", ["KEY_7"]),
    ("\u{1B}[3~", ["KEY_DELETE"]),
    ("\u{1B}[3;2~", ["shift+KEY_DELETE"]),
    ("\u{1B}[2~", ["KEY_INSERT"]),
    ("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF", ["KEY_HOME", "KEY_END", "KEY_HOME", "KEY_END"]),
    ("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~", ["KEY_HOME", "KEY_END", "KEY_HOME", "KEY_END"]),
    ("\u{1B}[5~\u{1B}[6~", ["KEY_PAGEUP", "KEY_PAGEDOWN"]),
    ("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS", ["KEY_F1", "KEY_F2", "KEY_F3", "KEY_F4"]),
    ("\u{1B}[11~\u{1B}[12~\u{1B}[13~\u{1B}[14~", ["KEY_F1", "KEY_F2", "KEY_F3", "KEY_F4"]),
    ("\u{1B}[15~\u{1B}[17~\u{1B}[21~\u{1B}[24~", ["KEY_F5", "KEY_F6", "KEY_F10", "KEY_F12"]),
    ("\u{1B}[[A\u{1B}[[E", ["KEY_F1", "KEY_F5"]),
    ("\u{1B}[1;2P", ["shift+KEY_F1"]),
    ("\u{1B}", ["KEY_ESC"]),
    ("1\u{1B}", ["KEY_1", "KEY_ESC"]),
    ("\u{1B}\u{1B}", ["KEY_ESC", "KEY_ESC"]),
    ("\u{1B}5", ["KEY_ESC", "KEY_5"]),
    // Unknown or unwanted sequences are consumed whole and the keys after them survive.
    ("\u{1B}[99~1", ["KEY_1"]),
    ("\u{1B}[?1;2c2", ["KEY_2"]),
    ("\u{1B}[<35;120;45M3", ["KEY_3"]),
    ("\u{1B}[I\u{1B}[O4", ["KEY_4"]),
    ("\u{1B}[ q5", ["KEY_5"]),
    ("\u{1B}OX6", ["KEY_6"]),
    ("\u{1B}[12\r", ["KEY_ENTER"]),
    ("é!#\u{01}\u{03}7", ["KEY_7"]),
  ])
  func decodes(input: String, expected: [String]) {
    #expect(keys(input) == expected)
  }

  @Test(arguments: [
    (["\u{1B}[", "A"], ["KEY_UP"]),
    (["\u{1B}[1;", "2A"], ["shift+KEY_UP"]),
    (["\u{1B}[3", "~1"], ["KEY_DELETE", "KEY_1"]),
    (["\u{1B}O", "P"], ["KEY_F1"]),
    (["\u{1B}[[", "B"], ["KEY_F2"]),
    (["\u{1B}", "[A"], ["KEY_ESC", "shift+KEY_A"]),
    (["\r", "\n"], ["KEY_ENTER"]),
    (["1\r", "\n2"], ["KEY_1", "KEY_ENTER", "KEY_2"]),
  ])
  func sequencesSplitAcrossReads(chunks: [String], expected: [String]) {
    var decoder = TerminalKeyDecoder()
    let keys = chunks.flatMap { decoder.decode(Array($0.utf8)) }.map(\.description)
    #expect(keys == expected)
  }

  @Test func unfinishedGarbageIsDroppedInsteadOfKeptForever() {
    let garbage = "\u{1B}[" + String(repeating: "1;", count: 20)
    #expect(keys(garbage, "7") == ["KEY_7"])
  }

  @Test func everyKeyHasAKernelName() {
    let bytes = (0...0x7F).map { UInt8($0) }
    var decoder = TerminalKeyDecoder()
    var keys = decoder.decode(bytes)
    for sequence in ["[A", "[3~", "[5~", "[24~", "[Z", "OP", "[[C", "[H", "[2~"] {
      keys += decoder.decode(Array(("\u{1B}" + sequence).utf8))
    }
    for key in keys {
      #expect(KeyCode(name: key.name) != nil, "\(key.name)")
    }
  }
}
