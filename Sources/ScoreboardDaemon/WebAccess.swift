import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardWeb

/// Who may change the board from the web: the pairing code armed by the operator, the
/// paired devices and their file beside the state file (`paired-devices`), and the
/// names the board answers to (a change whose `Host` names another is refused: DNS
/// rebinding).
final class WebAccess {
  /// The file's name, in the state file's folder.
  static let fileName = "paired-devices"
  /// The cookie that carries a paired device's token.
  static let cookieName = "scoreboardd_device"

  private(set) var pairing = Pairing()
  private(set) var devices = PairedDevices()
  /// Where the devices are kept; nil: in memory only (`state-file = none`).
  let path: String?
  private let logger: Logger
  private let clock: any TimeSource
  /// The host names (not addresses) a change may name in its `Host`: `localhost`, this
  /// machine's name and NAME.local.
  private let hostNames: Set<String>
  /// When a device's last-seen instant was last written to the file.
  private var lastSeenWritten: [String: Int64] = [:]
  /// How stale a last-seen instant may get in the file: an SD card is not written at
  /// every request.
  private static let lastSeenInterval: Int64 = 3_600_000

  /// Reads the paired devices from the folder of `stateFile` (nil: kept in memory only).
  /// A file that cannot be read is set aside and logged: its devices pair again.
  init(stateFile: String?, logger: Logger, clock: any TimeSource) {
    self.logger = logger
    self.clock = clock
    path = stateFile.map { file in
      let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        .joined(separator: "/")
      return (folder.isEmpty && !file.hasPrefix("/") ? "." : folder) + "/" + Self.fileName
    }
    var names: Set<String> = ["localhost"]
    if let name = HostName.current() {
      names.insert(name)
      names.insert(name + ".local")
    }
    hostNames = names
    guard let path else { return }
    do {
      guard let bytes = try AtomicFile.read(path, limit: 64 * 1024) else { return }
      devices = try PairedDevices(parsing: String(decoding: bytes, as: UTF8.self))
    } catch {
      logger.error("web: \(path): \(error); the devices paired before must pair again")
      _ = try? AtomicFile.setAside(path)
    }
    for device in devices.devices {
      lastSeenWritten[device.name] = device.lastSeen
    }
  }

  // MARK: - Pairing

  /// Arms a new code for `fields` (nil: every field) at `now`; the code.
  ///
  /// - Throws: `IOError` when the kernel gives no random bytes.
  func arm(fields: [String]?, at now: Instant) throws -> String {
    while true {
      if let code = Pairing.code(from: try SecureRandom.bytes(4)) {
        pairing.arm(code: code, fields: fields, at: now)
        return code
      }
    }
  }

  /// Disarms the code.
  func disarm() {
    pairing.disarm()
  }

  /// What pairing with `code` from `address` under the name `typedName` did: the device
  /// and its token when the code was right.
  enum PairingResult {
    case paired(PairedDevices.Device, token: String)
    case refused(Pairing.Attempt)
  }

  /// Tries `code` from `address` at `now`; a right code pairs a device named after
  /// `typedName` and uses the code up.
  ///
  /// - Throws: `IOError` when the kernel gives no random bytes for the token.
  func pair(code: String, typedName: String, from address: String, at now: Instant) throws
    -> PairingResult
  {
    let attempt = pairing.attempt(code, from: address, at: now)
    guard case .paired(let fields) = attempt else { return .refused(attempt) }
    let token = try SecureRandom.bytes(16)
    let wallClock = clock.wallClockMilliseconds()
    let device = PairedDevices.Device(
      name: devices.freeName(for: typedName), tokenHash: SHA256.hexDigest(token), fields: fields,
      pairedAt: wallClock, lastSeen: wallClock)
    devices.add(device)
    save()
    return .paired(device, token: Hex.text(token))
  }

  // MARK: - Devices

  /// The paired device a request's `Cookie` header names; notes it as seen.
  func device(cookieHeader: String?) -> PairedDevices.Device? {
    guard let cookieHeader, let token = FormFields.cookie(Self.cookieName, in: cookieHeader),
      let device = devices.device(withToken: token)
    else { return nil }
    let wallClock = clock.wallClockMilliseconds()
    devices.see(device.name, at: wallClock)
    if wallClock - (lastSeenWritten[device.name] ?? 0) >= Self.lastSeenInterval {
      save()
    }
    return device
  }

  /// Forgets the device named `name`, or all; the names forgotten.
  func unpair(_ name: String) -> [String] {
    let gone = devices.remove(name)
    if !gone.isEmpty {
      save()
    }
    return gone
  }

  /// The devices in words, for `scoreboardctl devices`: `scorer (every field, seen 3 min
  /// ago); shotclock (shot, seen 2 h ago)`.
  var listing: String {
    guard !devices.devices.isEmpty else { return "no device is paired" }
    let now = clock.wallClockMilliseconds()
    return devices.devices.map { device in
      let fields = device.fields.map { $0.joined(separator: " ") } ?? "every field"
      return "\(device.name) (\(fields), seen \(Self.ago(now - device.lastSeen)))"
    }.joined(separator: "; ")
  }

  private static func ago(_ milliseconds: Int64) -> String {
    let seconds = max(milliseconds, 0) / 1000
    switch seconds {
    case ..<60: return "just now"
    case ..<3600: return "\(seconds / 60) min ago"
    case ..<172_800: return "\(seconds / 3600) h ago"
    default: return "\(seconds / 86400) days ago"
    }
  }

  /// Writes the devices, when they are kept in a file; last-seen instants go along.
  func save() {
    guard let path else { return }
    do {
      try AtomicFile.write(Array(devices.text.utf8), to: path)
      for device in devices.devices {
        lastSeenWritten[device.name] = device.lastSeen
      }
    } catch {
      logger.log(
        .error, throttle: "paired-devices",
        "web: cannot save the paired devices: \(error); they stay paired until scoreboardd stops")
    }
  }

  // MARK: - Requests

  /// Why a state-changing request may not be carried out, as the answer's words; nil
  /// when its `Host` is one the board answers to and its `Origin` is that host.
  func refusal(host: String?, origin: String?) -> String? {
    RequestOrigin.refusal(host: host, origin: origin, names: hostNames)
  }
}
