import ScoreboardConfig
import Testing

extension MalformedConfigurationTests {
  /// The lines of an ht16k33 display for `.display`: `bus` at line 3, `address` at line 4.
  static func ht16k33(bus: String = "1", address: String = "0x70", more: String = "") -> String {
    "driver = ht16k33\nbus = \(bus)\naddress = \(address)\n" + more
  }

  static let i2cCases: [MalformedConfiguration] = [
    .display(
      "bus neither a number nor a path", ht16k33(bus: "i2c-1"),
      "demo.conf:3: [display main] bus: expected a bus number such as 1 (for /dev/i2c-1) or a device path such as /dev/i2c-1, found \"i2c-1\""
    ),
    .display(
      "address outside the backpacks' range", ht16k33(address: "0x70 0x20"),
      "demo.conf:4: [display main] address: expected an address from 0x70 to 0x77 for each backpack, left to right, such as 0x70 0x71, found \"0x20\""
    ),
    .display(
      "address in decimal", ht16k33(address: "112"),
      "demo.conf:4: [display main] address: expected an address from 0x70 to 0x77 for each backpack, left to right, such as 0x70 0x71, found \"112\""
    ),
    .display(
      "address twice", ht16k33(address: "0x70 0x70"),
      "demo.conf:4: [display main] address: expected each backpack at its own address, found 0x70 twice"
    ),
    .display(
      "address missing", "driver = ht16k33\nbus = 1\n",
      "demo.conf:1: [display main]: missing required key 'address'"),
    .display(
      "segments neither 7 nor 14", ht16k33(more: "segments = 16\n"),
      "demo.conf:5: [display main] segments: expected the segments of a digit: 7 or 14, found \"16\""
    ),
    .display(
      "colon on alphanumeric backpacks", ht16k33(more: "segments = 14\ncolon = yes\n"),
      "demo.conf:6: [display main] colon: applies only to seven-segment backpacks (segments = 7)"
    ),
    .display(
      "more digits than the backpacks have", ht16k33(address: "0x70 0x71", more: "digits = 9\n"),
      "demo.conf:5: [display main] digits: 2 backpacks of 4 digits have 8 digits: expected digits from 5 to 8, found 9"
    ),
    .display(
      "a backpack left without digits", ht16k33(address: "0x70 0x71", more: "digits = 4\n"),
      "demo.conf:5: [display main] digits: 2 backpacks of 4 digits have 8 digits: expected digits from 5 to 8, found 4"
    ),
    MalformedConfiguration(
      problem: "backpack in two displays",
      text: "[display main]\n" + ht16k33(address: "0x70 0x71") + "[display more]\n"
        + ht16k33(bus: "/dev/i2c-1", address: "0x72 0x71")
        + "[field home]\ndisplay = main\nposition = 1\ndigits = 2\n",
      diagnostics:
        "demo.conf:8: [display more] address: 0x71 on /dev/i2c-1 is also an address of [display main] (line 4); a backpack belongs to one display"
    ),
    .afterBase(
      "label with a letter seven segments cannot show", "[label name]\nposition = 3\ntext = HM\n",
      "demo.conf:9: [label name] text: \"HM\" cannot be shown on seven segments: 'M' has no legible shape; only fourteen-segment displays show every letter"
    ),
    .afterBase(
      "label over a field", "[label name]\nposition = 2\ntext = PE\n",
      "demo.conf:8: [label name] position: overlaps field 'home' on display 'main': this label takes cells 2 to 3, 'home' takes cells 1 to 2"
    ),
    .afterBase(
      "label past the display's end", "[label name]\nposition = 3\ntext = PER\n",
      "demo.conf:8: [label name] position: label needs cells 3 to 5, but display 'main' has 4 digits"
    ),
    .afterBase(
      "label without text", "[label name]\nposition = 3\n",
      "demo.conf:7: [label name]: missing required key 'text'"),
    .afterBase(
      "label with an unknown key", "[label name]\nposition = 3\ntext = P\ndigits = 1\n",
      "demo.conf:10: [label name] digits: unknown key 'digits'; expected 'display', 'position' or 'text'"
    ),
  ]
}
