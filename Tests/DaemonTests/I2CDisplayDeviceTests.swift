import LinuxIO
import ProtocolDecoders
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers
import TestSupport
import Testing

@testable import ScoreboardDaemon

/// The shipped HT16K33 examples, opened as the daemon opens them, on an in-memory bus:
/// each backpack, judged by the chip decoder, shows its part of the board.
@Suite struct I2CDisplayDeviceTests {
  static let examples: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/DaemonTests/I2CDisplayDeviceTests.swift
    return parts.joined(separator: "/") + "/Config/examples/"
  }()

  /// The chips at `addresses` after the devices of the example `file` showed its board at
  /// first start; its keypads are left out.
  static func chips(showing file: String, addresses: [UInt8]) throws -> [HT16K33Decoder] {
    var configuration = try ConfigurationFile.load(examples + file)
    configuration.keypads = []
    let bus = FakeI2CBackend(answering: Set(addresses))
    let devices = try Devices(
      configuration, gpio: FakeGPIOBackend(), i2c: bus, logger: try LogCapture().logger,
      loop: PollLoop(), clock: KernelTimeSource(), at: .zero)
    devices.show(Scoreboard(spec: configuration.scoreboard), at: .zero)
    return addresses.map { address in
      var chip = HT16K33Decoder()
      for transfer in bus.takeTransfers(to: address) {
        switch transfer {
        case .command(let byte): chip.receive(command: byte)
        case .block(let command, let data): chip.receive(command: command, data: data)
        }
      }
      return chip
    }
  }

  static let letters: [Character: [String]] = [
    "H": ["B", "C", "E", "F", "G1", "G2"], "O": ["A", "B", "C", "D", "E", "F"],
    "M": ["B", "C", "E", "F", "H", "K"], "E": ["A", "D", "E", "F", "G1"],
    "G": ["A", "C", "D", "E", "F", "G2"], "U": ["B", "C", "D", "E", "F"],
    "S": ["A", "C", "D", "F", "G1", "G2"], "T": ["A", "J", "M"], " ": [],
  ]

  static func segments(_ text: String) -> [[String]] {
    text.map { letters[$0]! }
  }

  @Test func labelsSpellTheNamesAcrossBackpacks() throws {
    let chips = try Self.chips(
      showing: "ht16k33-names.conf", addresses: [0x70, 0x71, 0x72, 0x73, 0x74])
    #expect(chips[0].alphanumericSegments == Self.segments("HOME"))
    #expect(chips[1].alphanumericSegments == Self.segments("   G"))
    #expect(chips[2].alphanumericSegments == Self.segments("UEST"))
    #expect(chips[3].sevenSegmentText == "  0 ")
    #expect(chips[4].sevenSegmentText == " 1 0", "the period is as wide as OT")
    #expect(chips.allSatisfy { $0.isShowing && $0.violations.isEmpty })
  }

  @Test func aListFieldSpellsItsValueAndTheScoresHaveTheirColon() throws {
    let chips = try Self.chips(showing: "ht16k33-backpacks.conf", addresses: [0x70, 0x71])
    #expect(chips[0].alphanumericSegments == Self.segments("HOME"))
    #expect(chips[1].sevenSegmentText == " 0:00")
    #expect(chips.allSatisfy { $0.isShowing && $0.violations.isEmpty })
  }
}
