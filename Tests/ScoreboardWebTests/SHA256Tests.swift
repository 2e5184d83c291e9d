import ScoreboardWeb
import Testing

@Suite struct SHA256Tests {
  /// FIPS 180-4's examples, the empty message, and lengths around a block's padding.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func knownDigests(message: String, digest: String) {
    #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
  }

  @Test func aMillionAs() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA256.hexDigest(message)
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func hexRoundTrips() {
    let bytes: [UInt8] = [0, 1, 0x7f, 0x80, 0xab, 0xff]
    #expect(Hex.text(bytes) == "00017f80abff")
    #expect(Hex.bytes("00017F80ABff") == bytes)
    #expect(Hex.bytes("0") == nil)
    #expect(Hex.bytes("0g") == nil)
  }
}
