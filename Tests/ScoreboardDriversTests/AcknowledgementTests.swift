import ScoreboardDrivers
import Testing

@Suite struct AcknowledgementTests {
  let acknowledgement = Acknowledgement(timeout: .milliseconds(100), retries: 3, address: 5)

  @Test(
    arguments: [
      ([0x06, 0x05], .accepted, 2),
      ([0x15, 0x05], .rejected, 2),
      // Noise before the answer is consumed with it.
      ([0x00, 0xFF, 0x05, 0x06, 0x05], .accepted, 5),
      // Answers of other boards are skipped.
      ([0x06, 0x04, 0x15, 0x07, 0x15, 0x05], .rejected, 6),
      // A marker followed by another marker: the second one starts the answer.
      ([0x06, 0x06, 0x05], .accepted, 3),
      ([0x06, 0x15, 0x05], .rejected, 3),
      // Only the first answer; the rest stays for the next scan.
      ([0x06, 0x05, 0x15, 0x05], .accepted, 2),
    ] as [([UInt8], Acknowledgement.Answer, Int)])
  func findsTheFirstAnswerForTheAddress(
    bytes: [UInt8], answer: Acknowledgement.Answer, consumed: Int
  ) throws {
    let found = try #require(acknowledgement.scan(bytes))
    #expect(found.answer == answer)
    #expect(found.consumed == consumed)
  }

  @Test(
    arguments: [
      [], [0x06], [0x15], [0x00, 0x03, 0x06], [0x05], [0x05, 0x06], [0x06, 0x04],
      [0x02, 0x05, 0x03],
    ] as [[UInt8]])
  func noCompleteAnswerYet(bytes: [UInt8]) {
    #expect(acknowledgement.scan(bytes) == nil)
  }

  @Test func answerSplitAcrossReads() throws {
    var received: [UInt8] = [0x00, 0x15]
    #expect(acknowledgement.scan(received) == nil)
    received.append(0x05)
    let found = try #require(acknowledgement.scan(received))
    #expect(found.answer == .rejected)
    #expect(found.consumed == 3)
  }

  @Test func answersOfABoardWhoseAddressIsAMarker() throws {
    let acknowledgement = Acknowledgement(timeout: .seconds(1), retries: 0, address: 0x06)
    let found = try #require(acknowledgement.scan([0x15, 0x06]))
    #expect(found.answer == .rejected)
    #expect(acknowledgement.scan([0x06]) == nil)
  }
}
