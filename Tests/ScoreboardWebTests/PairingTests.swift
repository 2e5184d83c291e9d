import ScoreboardCore
import ScoreboardWeb
import Testing

/// The pairing code with explicit times: its lifetime, the lockout of an address after
/// five wrong codes, and the disarming after thirty in all.
@Suite struct PairingTests {
  private func at(_ seconds: Double) -> Instant {
    Instant(nanoseconds: Int64(seconds * 1e9))
  }

  @Test func theRightCodePairsOnceForItsFields() {
    var pairing = Pairing()
    pairing.arm(code: "123456", fields: ["shot"], at: at(10))
    #expect(pairing.attempt("123456", from: "192.0.2.7", at: at(11)) == .paired(fields: ["shot"]))
    #expect(pairing.attempt("123456", from: "192.0.2.7", at: at(12)) == .notArmed)
  }

  @Test func theCodeExpiresAfterTwoMinutes() {
    var pairing = Pairing()
    pairing.arm(code: "123456", fields: nil, at: at(10))
    #expect(pairing.code(at: at(129.999))?.code == "123456")
    #expect(pairing.code(at: at(130)) == nil)
    #expect(pairing.attempt("123456", from: "192.0.2.7", at: at(130)) == .notArmed)
  }

  @Test func fiveWrongCodesLockAnAddressOutForTwoMinutes() {
    var pairing = Pairing()
    pairing.arm(code: "123456", fields: nil, at: at(0))
    for tries in 1...4 {
      #expect(
        pairing.attempt("000000", from: "192.0.2.7", at: at(Double(tries)))
          == .wrong(triesLeft: 5 - tries))
    }
    #expect(pairing.attempt("000000", from: "192.0.2.7", at: at(5)) == .lockedOut(until: at(125)))
    // Locked out: even the right code is refused, and the code stays armed for others.
    #expect(pairing.attempt("123456", from: "192.0.2.7", at: at(6)) == .lockedOut(until: at(125)))
    #expect(pairing.attempt("123456", from: "192.0.2.8", at: at(7)) == .paired(fields: nil))
  }

  @Test func aLockoutOutlivesANewCodeAndEnds() {
    var pairing = Pairing()
    pairing.arm(code: "123456", fields: nil, at: at(0))
    for tries in 1...5 {
      _ = pairing.attempt("000000", from: "192.0.2.7", at: at(Double(tries)))
    }
    pairing.arm(code: "654321", fields: nil, at: at(60))
    #expect(pairing.attempt("654321", from: "192.0.2.7", at: at(61)) == .lockedOut(until: at(125)))
    #expect(pairing.attempt("654321", from: "192.0.2.7", at: at(125)) == .paired(fields: nil))
  }

  @Test func thirtyWrongCodesInAllDisarmThePairing() {
    var pairing = Pairing()
    pairing.arm(code: "123456", fields: nil, at: at(0))
    for index in 0..<30 {
      let answer = pairing.attempt("000000", from: "192.0.2.\(index / 4)", at: at(1))
      #expect(answer != .notArmed)
    }
    #expect(pairing.armed == nil)
    #expect(pairing.attempt("123456", from: "198.51.100.1", at: at(2)) == .notArmed)
  }

  @Test func codesAreSixDigitsAndUniform() {
    #expect(Pairing.code(from: [0, 0, 0, 7]) == "000007")
    #expect(Pairing.code(from: [0, 0x0f, 0x42, 0x3f]) == "999999")
    #expect(Pairing.code(from: [0, 0x0f, 0x42, 0x40]) == "000000")
    // The last values of a 32-bit draw would favour low codes: they are drawn again.
    #expect(Pairing.code(from: [0xff, 0xff, 0xff, 0xff]) == nil)
    #expect(Pairing.code(from: [1, 2, 3]) == nil)
  }
}
