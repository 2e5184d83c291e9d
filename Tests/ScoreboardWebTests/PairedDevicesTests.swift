import ScoreboardWeb
import Testing

/// A token hash of 64 digits. (The bad files are built outside `@Test(arguments:)`:
/// Swift 6.0's type checker crashes on a string interpolation there, and gives up on
/// long concatenations.)
private let zeros = String(repeating: "0", count: 64)

@Suite struct PairedDevicesTests {
  private let token = "00112233445566778899aabbccddeeff"

  private func device(_ name: String, fields: [String]? = nil, seen: Int64 = 0)
    -> PairedDevices.Device
  {
    PairedDevices.Device(
      name: name, tokenHash: SHA256.hexDigest(Hex.bytes(token)!), fields: fields, pairedAt: 1000,
      lastSeen: seen)
  }

  @Test func theFileRoundTrips() throws {
    var devices = PairedDevices()
    devices.add(device("scorer"))
    devices.add(device("shotclock", fields: ["shot", "game"], seen: 2000))
    let read = try PairedDevices(parsing: devices.text)
    #expect(read == devices)
    #expect(devices.text.hasPrefix("scoreboardd-devices 1\nscorer "))
    #expect(!devices.text.contains(token))
  }

  @Test func aDeviceIsFoundByItsTokenOnly() {
    var devices = PairedDevices()
    devices.add(device("scorer", fields: ["home"]))
    #expect(devices.device(withToken: token)?.name == "scorer")
    #expect(devices.device(withToken: token.uppercased())?.name == "scorer")
    #expect(devices.device(withToken: "00112233445566778899aabbccddeefe") == nil)
    #expect(devices.device(withToken: "0011") == nil)
    #expect(devices.device(withToken: "not hex at all, not hex at all!!") == nil)
    #expect(devices.device(withToken: token)?.mayChange("home") == true)
    #expect(devices.device(withToken: token)?.mayChange("away") == false)
  }

  @Test(arguments: [
    ("", "phone"), ("Scorer's phone", "Scorer-s-phone"), ("all", "phone"),
    ("---x", "x"), (String(repeating: "a", count: 40), String(repeating: "a", count: 32)),
  ])
  func namesAreMadeSafe(typed: String, name: String) {
    #expect(PairedDevices().freeName(for: typed) == name)
  }

  @Test func aTakenNameGetsANumber() {
    var devices = PairedDevices()
    devices.add(device("phone"))
    #expect(devices.freeName(for: "phone") == "phone-2")
    devices.add(device("phone-2"))
    #expect(devices.freeName(for: "phone") == "phone-3")
  }

  @Test func unpairingByNameOrAll() {
    var devices = PairedDevices()
    devices.add(device("a"))
    devices.add(device("b"))
    #expect(devices.remove("c") == [])
    #expect(devices.remove("a") == ["a"])
    devices.add(device("c"))
    #expect(devices.remove("all") == ["b", "c"])
    #expect(devices.devices.isEmpty)
  }

  @Test func theDeviceSeenLongestAgoMakesRoom() {
    var devices = PairedDevices()
    for index in 0..<PairedDevices.limit {
      devices.add(device("d\(index)", seen: index == 5 ? 1 : 5000))
    }
    devices.add(device("new"))
    #expect(devices.devices.count == PairedDevices.limit)
    #expect(!devices.devices.contains { $0.name == "d5" })
  }

  /// Files that are not the devices' file, and what is said of each.
  static let badFiles: [(text: String, problem: String)] = {
    let hash: String = zeros
    let wrongHeader: String = "line 1: expected 'scoreboardd-devices 1'"
    var cases: [(text: String, problem: String)] = []
    cases.append(("", wrongHeader))
    cases.append(("scoreboardd-devices 2\n", wrongHeader))
    cases.append(
      ("scoreboardd-devices 1\nscorer abc * 1 2\n", "line 2: not a device: 'scorer abc * 1 2'"))
    let badName: String = "bad/name " + hash + " * 1 2"
    cases.append(
      ("scoreboardd-devices 1\n" + badName + "\n", "line 2: not a device: '" + badName + "'"))
    let twice: String = "a " + hash + " * 1 2\n"
    cases.append(("scoreboardd-devices 1\n" + twice + twice, "line 3: a second device named 'a'"))
    // Fields that are no names: a `*` among them (which read back as every field), an
    // empty one, a byte that is not UTF-8.
    for fields in ["*,", "home,,away", ",", "sho\u{FFFD},game"] {
      let line: String = "a " + hash + " " + fields + " 1 2"
      cases.append(
        ("scoreboardd-devices 1\n" + line + "\n", "line 2: not a device: '" + line + "'"))
    }
    let bell: String = " " + hash + " * 1 2"
    cases.append(
      (
        "scoreboardd-devices 1\nbell\u{7}" + bell + "\n",
        "line 2: not a device: 'bell\\u{7}" + bell + "'"
      ))
    return cases
  }()

  @Test(arguments: badFiles)
  func badFilesNameTheLine(text: String, problem: String) {
    #expect(throws: PairedDevices.Problem(description: problem)) {
      try PairedDevices(parsing: text)
    }
  }
}
