@preconcurrency import Glibc
import LinuxIO
import ScoreboardMQTT

// The MQTT scenario: a master scoreboardd publishing its state through a real Mosquitto
// broker on loopback, a mirror board following it, what publishing costs the master, and
// the master's keys while the broker dies and comes back.

/// A scoreboardd's `[mqtt]` section.
struct MQTTSetup {
  /// `mqtt://127.0.0.1:PORT`.
  var broker: String
  var topic: String
  /// The topic of the board this one mirrors, if it is a mirror.
  var mirror: String?
  /// Its `qos`, when not the default.
  var qos: Int?

  var section: String {
    var text = "\n[mqtt]\nbroker = \(broker)\ntopic = \(topic)\n"
    if let mirror {
      text += "mirror = \(mirror)\n"
    }
    if let qos {
      text += "qos = \(qos)\n"
    }
    return text
  }
}

/// A Mosquitto broker on a loopback port of its own, anonymous, without persistence (so a
/// broker started again has no retained messages until a board publishes them again).
final class LoopbackBroker {
  static let broker = "/usr/sbin/mosquitto"
  static let subscriber = "/usr/bin/mosquitto_sub"

  /// Whether the broker and its subscriber client are installed (`make deps`).
  static var isAvailable: Bool {
    access(broker, X_OK) == 0 && access(subscriber, X_OK) == 0
  }

  let folder: String
  let port: Int
  private var pid: pid_t = 0

  /// A broker; with `noDelay`, it sets TCP_NODELAY on its clients' sockets
  /// (`set_tcp_nodelay`, off by default).
  init(noDelay: Bool = false) throws {
    var template = Array("/tmp/scoreboardd-bench-broker-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchmarkError(description: "mkdtemp") }
    folder = String(cString: made)
    port = try Self.freePort()
    // Started as root, Mosquitto would change to its own user otherwise.
    let user = geteuid() == 0 ? "user root\n" : ""
    try writeText(
      """
      \(user)persistence false
      log_dest stderr
      log_type error
      log_type warning
      listener \(port) 127.0.0.1
      allow_anonymous true
      set_tcp_nodelay \(noDelay)

      """, to: folder + "/mosquitto.conf")
    try start()
  }

  deinit {
    kill()
    for name in ["mosquitto.conf", "stderr.log"] {
      unlink(folder + "/" + name)
    }
    rmdir(folder)
  }

  var url: String { "mqtt://127.0.0.1:\(port)" }

  /// Starts the broker (again, on the same port) and waits until it accepts connections.
  func start() throws {
    pid = try spawn(
      [Self.broker, "-c", folder + "/mosquitto.conf"], standardError: folder + "/stderr.log")
    let deadline = MonotonicClock.now() + 10_000_000_000
    while !Self.accepts(port: port) {
      guard MonotonicClock.now() < deadline else {
        throw BenchmarkError(description: "mosquitto did not start: \(log)")
      }
      usleep(5_000)
    }
  }

  /// Kills the broker at once (SIGKILL: no goodbye to any client) and reaps it.
  func kill() {
    guard pid > 0 else { return }
    Glibc.kill(pid, SIGKILL)
    var status: CInt = 0
    waitpid(pid, &status, 0)
    pid = 0
  }

  var log: String { (try? readText(folder + "/stderr.log")) ?? "" }

  /// The retained message on `topic`, or nil when there is none (`mosquitto_sub
  /// --retained-only`, which waits at most a second).
  func retained(_ topic: String) throws -> String? {
    var ends: [CInt] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkError(description: "pipe") }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    let child: pid_t
    do {
      child = try spawn(
        [
          Self.subscriber, "-h", "127.0.0.1", "-p", String(port), "-t", topic, "-C", "1", "-W",
          "1", "--retained-only",
        ], standardOutput: ends[1])
    } catch {
      close(ends[0])
      close(ends[1])
      throw error
    }
    close(ends[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    close(ends[0])
    var status: CInt = 0
    waitpid(child, &status, 0)
    let text = String(decoding: bytes, as: UTF8.self)
    let line = text.split(separator: "\n").first.map(String.init)
    return line?.isEmpty == false ? line : nil
  }

  /// A loopback port nothing listens on now.
  static func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchmarkError(description: "socket") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
      }
    }
    guard bound else { throw BenchmarkError(description: "bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on the loopback `port`.
  static func accepts(port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// Starts `arguments` with standard input from `standardInput` and standard output to
/// `standardOutput` (descriptors; /dev/null if negative), and standard error to the file
/// `standardError` (/dev/null if nil); returns its process id.
func spawn(
  _ arguments: [String], standardInput: CInt = -1, standardOutput: CInt = -1,
  standardError: String? = nil
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  if standardInput >= 0 {
    posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  }
  if standardOutput >= 0 {
    posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  }
  posix_spawn_file_actions_addopen(
    &actions, 2, standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let argv = arguments.map { strdup($0) } + [nil]
  defer {
    for pointer in argv {
      free(pointer)
    }
  }
  var pid: pid_t = 0
  let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
  guard result == 0 else {
    throw BenchmarkError(description: "posix_spawn \(arguments[0]): \(result)")
  }
  return pid
}

/// Nanoseconds of CPU per committed change of one master, from one run of keys.
struct PublishingCostRun {
  /// All threads' scheduler time (`/proc/PID/task/*/schedstat`) per change.
  var scheduledPerChange: Double
  /// utime + stime (`/proc/PID/stat`, clock ticks; all threads) per change.
  var ticksPerChange: Double
}

/// The master's keys while the broker dies and comes back.
struct BrokerOutageRun {
  /// Nanoseconds from each key's write to the first byte of its answer on the master's
  /// own display, in key order.
  var samples: [Int64]
  /// The broker was killed before this key and started again before `restartedBefore`.
  var killedBefore: Int
  var restartedBefore: Int
  /// The master's final state, and the broker's retained state after the run.
  var finalHome: Int
  var finalAway: Int
  /// Nanoseconds from the answer to the last key until the retained state held the final
  /// value.
  var retainedAfter: Int64
}

/// The MQTT scenario's figures.
struct MQTTRunResult {
  /// Nanoseconds from a key on the master to the mirror's module showing its change.
  var mirrorSamples: [Int64] = []
  var withMQTT: [PublishingCostRun] = []
  var withoutMQTT: [PublishingCostRun] = []
  var changes = 0
  var outage: BrokerOutageRun?
  var commands = CommandRunResult()
}

extension Scenarios {
  static let masterTopic = "scoreboardd/bench-master"
  static let mirrorTopic = "scoreboardd/bench-mirror"

  /// Waits until `broker`'s retained state of `topic` satisfies `predicate`; returns the
  /// document, or nil after `seconds`.
  func waitForRetainedState(
    _ broker: LoopbackBroker, _ topic: String, seconds: Double,
    _ predicate: (JSONValue) -> Bool
  ) throws -> JSONValue? {
    let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
    while MonotonicClock.now() < deadline {
      if let text = try broker.retained(topic + "/state"),
        let document = try? JSONValue.parse(text), predicate(document)
      {
        return document
      }
      usleep(20_000)
    }
    return nil
  }

  /// Whether a state document shows `home` and `away`.
  static func state(_ document: JSONValue, shows home: Int, _ away: Int) -> Bool {
    document["fields"]?["home"]?["value"]?.intValue == Int64(home)
      && document["fields"]?["away"]?["value"]?.intValue == Int64(away)
  }

  /// Nanoseconds from just before the `write` of a key press into the master's keypad to
  /// the return of the `poll` on the mirror's master side after which its decoded module
  /// shows the master's new state, for `keys` keys after `warmUp` ones: one broker, a
  /// master (evdev FIFO keypad, S7S display, `[mqtt]`) and a mirror (`mirror =` the
  /// master's topic, an S7S display), both at 1,000,000 baud. Keys alternate home +1 and
  /// -1, one every `interval` ns once the previous one has reached the mirror, so that
  /// each is measured alone.
  func mirrorLatency(keys: Int, warmUp: Int = 20, interval: Int64 = 20_000_000) throws
    -> [Int64]
  {
    let broker = try LoopbackBroker()
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.masterTopic))
    let mirror = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.mirrorTopic, mirror: Self.masterTopic))
    try master.waitUntilReady()
    try mirror.waitUntilReady()
    var samples: [Int64] = []
    samples.reserveCapacity(keys)
    var next = MonotonicClock.now()
    for number in 0..<(warmUp + keys) {
      MonotonicClock.sleep(until: next)
      master.drain()
      mirror.drain()
      let key: Key = number % 2 == 0 ? .homeUp : .homeDown
      let records = master.expect(key)
      let expected = master.expectedText
      let start = MonotonicClock.now()
      guard master.writeSome(records, from: 0) == records.count else {
        throw BenchmarkError(description: "the master's keypad FIFO is full")
      }
      // The first keys wait for the boards to connect and the mirror to follow.
      let deadline = start + (number == 0 ? 20_000_000_000 : 5_000_000_000)
      var shownAt: Int64?
      while shownAt == nil {
        guard let arrival = mirror.waitForByte(deadline: deadline) else {
          throw BenchmarkError(
            description: "the mirror shows \"\(mirror.shows)\", not \"\(expected)\" after key "
              + "\(number)\nthe master's log:\n\(master.log)\nthe mirror's log:\n\(mirror.log)")
        }
        mirror.drain()
        if mirror.shows == expected {
          shownAt = arrival
        }
      }
      if number >= warmUp, let shownAt {
        samples.append(shownAt - start)
      }
      master.release(key)
      next = max(next + interval, MonotonicClock.now())
    }
    try master.waitUntilSettled()
    master.stop()
    mirror.stop()
    return samples
  }

  /// The CPU time of a master over `changes` committed changes (home +1 and -1 in turn,
  /// one every 2 ms after the previous one's answer on its display), with `[mqtt]` (on a
  /// broker running throughout, the master connected and its state retained before the
  /// first change) or without, the configuration otherwise the same. Counted from just
  /// before the first key to 200 ms after the last answer, so that the publications and
  /// their acknowledgements are in.
  func publishingCost(changes: Int, broker: LoopbackBroker, mqtt: Bool, qos: Int? = nil) throws
    -> PublishingCostRun
  {
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000,
      mqtt: mqtt ? MQTTSetup(broker: broker.url, topic: Self.masterTopic, qos: qos) : nil)
    try master.waitUntilReady()
    if mqtt {
      // Its initial state retained: connected, discovery published.
      guard
        try waitForRetainedState(broker, Self.masterTopic, seconds: 20, { _ in true }) != nil
      else {
        throw BenchmarkError(description: "the master published no state\n\(master.log)")
      }
    }
    usleep(300_000)
    master.drain()
    let ticks = Double(sysconf(CInt(_SC_CLK_TCK)))
    let before = master.counters
    var next = MonotonicClock.now()
    for number in 0..<changes {
      MonotonicClock.sleep(until: next)
      let key: Key = number % 2 == 0 ? .homeUp : .homeDown
      let records = master.expect(key)
      let start = MonotonicClock.now()
      guard master.writeSome(records, from: 0) == records.count else {
        throw BenchmarkError(description: "the master's keypad FIFO is full")
      }
      guard master.waitForByte(deadline: start + 2_000_000_000) != nil else {
        throw BenchmarkError(description: "no answer to key \(number)\n\(master.log)")
      }
      master.drain()
      master.release(key)
      next = max(next + Self.keyInterval, MonotonicClock.now())
    }
    try master.waitUntilSettled()
    usleep(200_000)
    master.drain()
    let after = master.counters
    master.stop()
    return PublishingCostRun(
      scheduledPerChange: Double(after.allThreadsCPUNanoseconds - before.allThreadsCPUNanoseconds)
        / Double(changes),
      ticksPerChange: Double(after.cpuTicks - before.cpuTicks) * 1e9 / ticks / Double(changes))
  }

  /// Nanoseconds from just before the `write` of each of `keys` key presses into the
  /// master's keypad to the return of the `poll` that finds the first byte of its answer
  /// on the master's own S7S display (1,000,000 baud), a key every `interval` ns, the
  /// broker killed (SIGKILL) before key `keys` × 0.3 and started again on the same port
  /// before key `keys` × 0.6. Home +1 and -1 in turn, the last key away +1, so that the
  /// final state appears only with it; afterwards waits (up to 90 s) until the broker's
  /// retained state holds it, and throws if it never does.
  func brokerOutage(keys: Int, interval: Int64 = 10_000_000) throws -> BrokerOutageRun {
    let broker = try LoopbackBroker()
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.masterTopic))
    try master.waitUntilReady()
    guard try waitForRetainedState(broker, Self.masterTopic, seconds: 20, { _ in true }) != nil
    else {
      throw BenchmarkError(description: "the master published no state\n\(master.log)")
    }
    let killedBefore = keys * 3 / 10
    let restartedBefore = keys * 6 / 10
    var samples: [Int64] = []
    samples.reserveCapacity(keys)
    var next = MonotonicClock.now()
    var lastAnswer: Int64 = 0
    for number in 0..<keys {
      if number == killedBefore {
        broker.kill()
      }
      if number == restartedBefore {
        try broker.start()
      }
      MonotonicClock.sleep(until: next)
      master.drain()
      let key: Key = number == keys - 1 ? .awayUp : number % 2 == 0 ? .homeUp : .homeDown
      let records = master.expect(key)
      let start = MonotonicClock.now()
      guard master.writeSome(records, from: 0) == records.count else {
        throw BenchmarkError(description: "the master's keypad FIFO is full")
      }
      guard let arrival = master.waitForByte(deadline: start + 2_000_000_000) else {
        throw BenchmarkError(description: "no answer to key \(number)\n\(master.log)")
      }
      samples.append(arrival - start)
      lastAnswer = arrival
      master.drain()
      master.release(key)
      next = max(next + interval, MonotonicClock.now())
    }
    try master.waitUntilSettled()
    let home = master.home
    let away = master.away
    guard
      try waitForRetainedState(
        broker, Self.masterTopic, seconds: 90, { Self.state($0, shows: home, away) }) != nil
    else {
      let retained = (try? broker.retained(Self.masterTopic + "/state")) ?? nil
      throw BenchmarkError(
        description: "FAILED: after the broker came back, its retained "
          + "\(Self.masterTopic)/state does not hold the master's final value (home \(home), "
          + "away \(away)): \(retained ?? "nothing retained")\nthe master's log:\n\(master.log)")
    }
    let retainedAfter = MonotonicClock.now() - lastAnswer
    master.stop()
    return BrokerOutageRun(
      samples: samples, killedBefore: killedBefore, restartedBefore: restartedBefore,
      finalHome: home, finalAway: away, retainedAfter: retainedAfter)
  }
}

/// The MQTT section of the results.
func mqttReport(_ result: MQTTRunResult?) -> String {
  var text = "## MQTT\n\n"
  guard let result, let outage = result.outage else {
    return text
      + "Skipped: mosquitto is not installed (`make deps` installs `mosquitto` and "
      + "`mosquitto-clients`).\n"
  }
  let masterState = "`\(Scenarios.masterTopic)/state`"
  text +=
    "One Mosquitto broker on a loopback port (anonymous, no persistence), release "
    + "scoreboardd boards with an evdev FIFO keypad and an S7S display at 1,000,000 baud "
    + "(the scores of the other sections) and `[mqtt]` on it (QoS 1, the default), "
    + "publishing their retained state at \(masterState) on every committed change.\n\n"

  let mirror = result.mirrorSamples.sorted()
  text +=
    "**Mirror latency**: a master and a mirror (`mirror = \(Scenarios.masterTopic)`); µs "
    + "from just before the `write` of a key press into the master's keypad to the return "
    + "of the `poll` on the mirror's pseudo-terminal after which its decoded module shows the "
    + "master's new state. Home +1 and -1 in turn, a key 20 ms after the previous one "
    + "reached the mirror (each measured alone), after 20 warm-up keys.\n\n"
  text += "| keys | p50 | p99 | max |\n| --- | --- | --- | --- |\n"
  text +=
    "| \(mirror.count) | \(microseconds(percentile(mirror, 0.5))) "
    + "| \(microseconds(percentile(mirror, 0.99))) | \(microseconds(mirror.last ?? 0)) |\n\n"

  let withScheduled = Spread(values: result.withMQTT.map { $0.scheduledPerChange / 1000 })
  let withoutScheduled = Spread(values: result.withoutMQTT.map { $0.scheduledPerChange / 1000 })
  let withTicks = Spread(values: result.withMQTT.map { $0.ticksPerChange / 1000 })
  let withoutTicks = Spread(values: result.withoutMQTT.map { $0.ticksPerChange / 1000 })
  text +=
    "**CPU per published change**: the master's CPU time over \(result.changes) committed "
    + "changes (home +1 and -1 in turn, a key every 2 ms after the previous one's answer on "
    + "its display), with `[mqtt]` (connected, its state retained before the first key) and "
    + "without (the same configuration otherwise), counted from just before the first key "
    + "to 200 ms after the last answer, divided by the changes. The scheduler's time is "
    + "summed over all the process's threads (`/proc/PID/task/*/schedstat`, ns; the MQTT "
    + "client has a thread of its own, which `/proc/PID/schedstat` does not count); "
    + "`utime + stime` of `/proc/PID/stat` (clock ticks, all threads) is the check. "
    + "\(result.withMQTT.count) round\(result.withMQTT.count == 1 ? "" : "s") of each, in "
    + "turns; median (min–max) in µs per change.\n\n"
  text += "| per change, µs | with [mqtt] | without | publishing (difference) |\n"
  text += "| --- | --- | --- | --- |\n"
  text +=
    "| CPU, all threads (schedstat) | \(withScheduled.text(2)) | \(withoutScheduled.text(2)) "
    + "| \(format(withScheduled.median - withoutScheduled.median, 2)) |\n"
  text +=
    "| CPU, utime + stime | \(withTicks.text(2)) | \(withoutTicks.text(2)) "
    + "| \(format(withTicks.median - withoutTicks.median, 2)) |\n\n"

  let keys = outage.samples.count
  text +=
    "**Key latency while the broker dies and comes back**: \(keys) keys on the master, one "
    + "every 10 ms; µs from the `write` of a press to the first byte of the answer on the "
    + "master's own display (as in \"Key to wire\"). The broker is killed (SIGKILL) after "
    + "key \(outage.killedBefore) and started again on the same port after key "
    + "\(outage.restartedBefore); home +1 and -1 in turn, the last key away +1. The target: "
    + "p99 under 5 ms throughout.\n\n"
  text += "| keys | count | p50 | p99 | max | p99 under 5 ms |\n"
  text += "| --- | --- | --- | --- | --- | --- |\n"
  let parts: [(String, ArraySlice<Int64>)] = [
    ("all", outage.samples[...]),
    (
      "1–\(outage.killedBefore), broker up",
      outage.samples[..<outage.killedBefore]
    ),
    (
      "\(outage.killedBefore + 1)–\(outage.restartedBefore), broker away",
      outage.samples[outage.killedBefore..<outage.restartedBefore]
    ),
    (
      "\(outage.restartedBefore + 1)–\(keys), broker back",
      outage.samples[outage.restartedBefore...]
    ),
  ]
  for (name, part) in parts {
    let sorted = part.sorted()
    let p99 = percentile(sorted, 0.99)
    text +=
      "| \(name) | \(sorted.count) | \(microseconds(percentile(sorted, 0.5))) "
      + "| \(microseconds(p99)) | \(microseconds(sorted.last ?? 0)) "
      + "| \(p99 < 5_000_000 ? "yes" : "**no**") |\n"
  }
  text +=
    "\nAfter the run the broker's retained \(masterState) held the master's final value "
    + "(home \(outage.finalHome), away \(outage.finalAway)), "
    + "\(format(Double(outage.retainedAfter) / 1e9, 2)) s after the answer to the last key "
    + "(the master reconnects with a back-off of 1 s, doubling).\n\n"
  return text + commandReport(result.commands)
}

/// Nanoseconds as µs with one decimal.
func microseconds(_ nanoseconds: Int64) -> String {
  format(Double(nanoseconds) / 1000)
}
