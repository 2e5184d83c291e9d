import ScoreboardConfig
import ScoreboardCore
import ScoreboardSettings
import Testing

/// HT16K33 displays and labels read into exact options, with their defaults.
@Suite struct I2CDisplayParsingTests {
  static func configuration(_ text: String) throws -> Configuration {
    try Configuration.parse(text, path: "i2c.conf")
  }

  @Test func ht16k33WithDefaults() throws {
    let configuration = try Self.configuration(
      """
      [display main]
      driver = ht16k33
      bus = 1
      address = 0x70
      [field home]
      position = 1
      digits = 4
      """)
    #expect(
      configuration.displays.map(\.driver) == [
        .ht16k33(HT16K33DisplayOptions(bus: "/dev/i2c-1", addresses: [0x70]))
      ])
    #expect(configuration.displays[0].cellCount == 4, "4 digits per backpack")
    #expect(!configuration.scoreboard.displays[0].isAlphanumeric)
  }

  @Test func ht16k33WithEveryKey() throws {
    let configuration = try Self.configuration(
      """
      [display names]
      driver = ht16k33
      bus = /dev/i2c-3
      address = 0x72 0X71 0x77
      segments = 14
      digits = 10
      reinit-interval = 0
      [field home]
      position = 1
      digits = 2
      """)
    #expect(
      configuration.displays.map(\.driver) == [
        .ht16k33(
          HT16K33DisplayOptions(
            bus: "/dev/i2c-3", addresses: [0x72, 0x71, 0x77], backpack: .alphanumeric,
            reinitializeInterval: nil))
      ])
    #expect(configuration.displays[0].cellCount == 10)
    #expect(configuration.scoreboard.displays[0].isAlphanumeric)
  }

  @Test func aSevenSegmentColonAndReinitialisation() throws {
    let configuration = try Self.configuration(
      """
      [display main]
      driver = ht16k33
      bus = 1
      address = 0x70
      colon = yes
      reinit-interval = 5s
      [field home]
      position = 1
      digits = 2
      """)
    #expect(
      configuration.displays.map(\.driver) == [
        .ht16k33(
          HT16K33DisplayOptions(
            bus: "/dev/i2c-1", addresses: [0x70], colon: true,
            reinitializeInterval: .seconds(5)))
      ])
  }

  @Test func listValuesWithAnyLetterFitFourteenSegmentCells() throws {
    let configuration = try Self.configuration(
      """
      [display names]
      driver = ht16k33
      bus = 1
      address = 0x70 0x71
      segments = 14
      [field possession]
      position = 4
      values = HOME GUEST
      [label home]
      position = 1
      text = WXY
      """)
    #expect(configuration.scoreboard.fields[0].width == 5)
    #expect(
      configuration.scoreboard.labels == [
        LabelSpec(name: "home", display: "names", position: 0, text: "WXY")
      ])
  }

  @Test func aLabelOnSevenSegmentsTakesAPointWithItsLetter() throws {
    let configuration = try Self.configuration(
      """
      [display main]
      driver = terminal
      digits = 6
      [field home]
      position = 1
      digits = 2
      [label period]
      position = 4
      text = P.E.r
      """)
    #expect(
      configuration.scoreboard.labels == [
        LabelSpec(name: "period", display: "main", position: 3, text: "P.E.r")
      ])
  }
}
