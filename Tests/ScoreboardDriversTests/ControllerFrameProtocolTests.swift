import ProtocolDecoders
import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct ControllerFrameProtocolTests {
  typealias Received = SerialFrameReceiver.Received

  /// Five cells `12 07` at brightness 8, the first example of the specification.
  let scoreFrame = Fixtures.frame("12 07")

  func encoder(address: UInt8 = 5) -> ControllerFrameProtocol {
    ControllerFrameProtocol(address: address, acknowledgement: nil)
  }

  /// What a receiver must reconstruct from `frame` sent to `address`.
  func received(_ frame: Frame, address: UInt8 = 5) -> Received {
    Received(
      address: address, cells: frame.cells.map(\.rawValue), brightness: frame.brightness,
      isBlank: frame.isBlank)
  }

  func frames(in bytes: [UInt8]) -> [Received] {
    var receiver = SerialFrameReceiver()
    receiver.receive(bytes)
    return receiver.frames
  }

  @Test func crcCheckValue() {
    let crc = "123456789".utf8.reduce(UInt8(0), SerialFrameReceiver.crc8)
    #expect(crc == 0xF4)
  }

  @Test(
    arguments: [
      (1, "12 07", 8, false, "02 05 05 06 5B 00 3F 07 08 B3 03"),
      (1, "12 07", 8, true, "02 05 05 06 5B 00 3F 07 88 3A 03"),
      (2, "09.59", 15, false, "02 01 04 3F EF 6D 6F 0F E4 03"),
    ] as [(Int, String, Int, Bool, String)])
  func examplesOfTheSpecification(
    example: Int, text: String, brightness: Int, isBlank: Bool, hex: String
  ) {
    var encoder = encoder(address: example == 1 ? 5 : 1)
    let bytes = encoder.initialize(
      showing: Fixtures.frame(text, brightness: brightness, isBlank: isBlank))
    #expect(bytes == hex.split(separator: " ").map { UInt8($0, radix: 16)! })
  }

  /// Sixty-four cells, each with its own segments. (Swift 6.0.3 crashes on a closure in the
  /// arguments of a test, so the list is made here.)
  static let longFrameCells = (0..<64).map { Segments(rawValue: UInt8($0 * 4 + 2)) }

  @Test(arguments: [
    Frame(cells: [.dp], brightness: 0),
    Frame(cells: [[.b], [.a, .b], [.b, .c], [.a, .c], .init(rawValue: 0xFF)], brightness: 15),
    Frame(cells: longFrameCells, brightness: 3),
    Frame(cells: [.blank, .blank], brightness: 9, isBlank: true),
  ])
  func receiverReconstructsEveryFrame(frame: Frame) {
    var encoder = encoder(address: 0x42)
    let bytes = encoder.initialize(showing: frame)
    #expect(bytes.count == frame.cells.count + 6)
    #expect(frames(in: bytes) == [received(frame, address: 0x42)])
  }

  /// The protocol has no colon: a clock's colon arrives as the point of the cell before
  /// it (`12:34` as `06 DB 4F 66`, the specification's example), tenths as a point.
  @Test(
    arguments: [
      ("12.34", [1], [0x06, 0xDB, 0x4F, 0x66]),
      (" 53.8", [], [0x00, 0x6D, 0xCF, 0x7F]),
    ] as [(String, [Int], [UInt8])])
  func aClocksColonArrivesAsThePointBeforeIt(text: String, colons: [Int], cells: [UInt8]) {
    var encoder = encoder()
    let bytes = encoder.initialize(showing: Fixtures.frame(text, colons: colons))
    #expect(frames(in: bytes).map(\.cells) == [cells])
  }

  @Test(arguments: [(-4, 0), (16, 15), (200, 15)])
  func brightnessOutsideTheScaleIsClamped(level: Int, sent: Int) {
    var encoder = encoder()
    let bytes = encoder.initialize(showing: Fixtures.frame("1", brightness: level))
    #expect(frames(in: bytes).map(\.brightness) == [sent])
  }

  @Test func framesAreFoundAmongNoise() {
    var encoder = encoder()
    let blanked = Fixtures.frame("12 07", isBlank: true)
    let noise: [UInt8] = [0x00, 0x03, 0xFF, 0x02, 0x00, 0x02, 0x05, 0x41, 0x15, 0x06]
    let stream =
      noise + encoder.initialize(showing: scoreFrame) + noise + encoder.update(to: blanked)
      + noise
    #expect(frames(in: stream) == [received(scoreFrame), received(blanked)])
  }

  @Test func corruptedFrameFailsTheCRCAndTheNextFrameIsReceived() {
    var encoder = encoder()
    var corrupted = encoder.initialize(showing: scoreFrame)
    corrupted[4] ^= 0x10
    let good = encoder.update(to: Fixtures.frame("12 08"))
    var receiver = SerialFrameReceiver()
    receiver.receive(corrupted + good)
    #expect(
      receiver.events == [.failedCheck(address: 5), .frame(received(Fixtures.frame("12 08")))])
  }

  @Test(arguments: 0..<11)
  func anyCorruptedByteLosesOnlyThatFrame(index: Int) {
    var encoder = encoder()
    var corrupted = encoder.initialize(showing: scoreFrame)
    corrupted[index] ^= 0x01
    let good = encoder.update(to: Fixtures.frame("12 08"))
    #expect(frames(in: corrupted + good) == [received(Fixtures.frame("12 08"))])
  }

  @Test(arguments: 1..<11)
  func truncatedFrameIsFollowedByAGoodOne(length: Int) {
    var encoder = encoder()
    let truncated = Array(encoder.initialize(showing: scoreFrame).prefix(length))
    let good = encoder.update(to: Fixtures.frame("12 08"))
    #expect(frames(in: truncated + good) == [received(Fixtures.frame("12 08"))])
  }

  @Test(arguments: [0, 65, 255] as [UInt8])
  func countOutOfRangeIsNoFrameAndGetsNoAnswer(count: UInt8) {
    var receiver = SerialFrameReceiver()
    receiver.receive([0x02, 0x05, count, 0x06, 0x08, 0x00, 0x03])
    #expect(receiver.events.isEmpty)
  }

  @Test func identicalFramesSendNothing() {
    var encoder = encoder()
    _ = encoder.initialize(showing: scoreFrame)
    #expect(encoder.update(to: scoreFrame).isEmpty)
    var sameOnTheWire = scoreFrame
    sameOnTheWire.fieldTexts = ["home": "12"]
    #expect(encoder.update(to: sameOnTheWire).isEmpty)
  }

  @Test(arguments: [
    Fixtures.frame("12 08"),
    Fixtures.frame("12 07", brightness: 9),
    Fixtures.frame("12 07", isBlank: true),
    Fixtures.frame("12 07."),
  ])
  func everyChangeSendsTheCompleteFrame(changed: Frame) {
    var encoder = encoder()
    _ = encoder.initialize(showing: scoreFrame)
    #expect(frames(in: encoder.update(to: changed)) == [received(changed)])
    #expect(encoder.update(to: changed).isEmpty)
    #expect(frames(in: encoder.update(to: scoreFrame)) == [received(scoreFrame)])
  }

  @Test func initialiseAlwaysSendsTheFrame() {
    var encoder = encoder()
    let first = encoder.initialize(showing: scoreFrame)
    #expect(encoder.initialize(showing: scoreFrame) == first)
  }

  @Test func updateBeforeInitialiseSendsTheFrame() {
    var encoder = encoder()
    #expect(frames(in: encoder.update(to: scoreFrame)) == [received(scoreFrame)])
  }

  @Test func acknowledgementIsTheConfiguredOne() {
    let acknowledgement = Acknowledgement(timeout: .milliseconds(50), retries: 2, address: 9)
    #expect(
      ControllerFrameProtocol(address: 9, acknowledgement: acknowledgement).acknowledgement
        == acknowledgement)
    #expect(encoder(address: 9).acknowledgement == nil)
  }
}
