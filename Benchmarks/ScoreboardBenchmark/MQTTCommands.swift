@preconcurrency import Glibc
import LinuxIO
import ScoreboardMQTT

// Commands to a board through the broker: the QoS 1 round trip of a command and its reply,
// keys on the board while another client floods its command topic, and the board's memory
// after messages far over the size it announces.

/// A client of the benchmark's own on the loopback broker (the daemon's MQTT client, run
/// here as a plain MQTT 5 client).
final class BenchClient {
  let client: MQTTClient

  /// A client connected to `broker`, subscribed to `subscriptions` at QoS 1.
  init(_ broker: LoopbackBroker, name: String, subscriptions: [String] = []) throws {
    client = try MQTTClient(
      MQTTClient.Options(
        host: "127.0.0.1", port: broker.port, clientID: "bench-\(name)-\(getpid())"))
    for topic in subscriptions {
      client.subscribe(topic, qos: 1)
    }
    try client.start()
    let deadline = MonotonicClock.now() + 10_000_000_000
    while true {
      guard let event = next(deadline: deadline) else {
        throw BenchmarkError(description: "the bench's MQTT client did not connect")
      }
      if event == .connected { break }
    }
    // A subscription is in place once a message published after it comes back.
    if let topic = subscriptions.first, !topic.contains("#"), !topic.contains("+") {
      client.publish(topic, "subscribed", qos: 1, retain: false)
      guard
        waitForMessage(deadline: deadline, where: { $0.payload == Array("subscribed".utf8) })
          != nil
      else {
        throw BenchmarkError(description: "the bench's MQTT subscription did not take")
      }
    }
  }

  deinit {
    client.stop()
  }

  /// The next event, waiting until `deadline`.
  func next(deadline: Int64) -> MQTTClient.Event? {
    var entry = pollfd(fd: client.eventDescriptor, events: Int16(POLLIN), revents: 0)
    while true {
      if let event = client.nextEvent() {
        return event
      }
      let now = MonotonicClock.now()
      guard now < deadline else { return nil }
      _ = poll(&entry, 1, CInt(min((deadline - now) / 1_000_000 + 1, 1000)))
    }
  }

  /// The first message that satisfies `predicate` and when it was taken, skipping others;
  /// nil at `deadline`.
  func waitForMessage(deadline: Int64, where predicate: (MQTTClient.Message) -> Bool)
    -> (message: MQTTClient.Message, at: Int64)?
  {
    while let event = next(deadline: deadline) {
      if case .message(let message) = event, predicate(message) {
        return (message, MonotonicClock.now())
      }
    }
    return nil
  }
}

/// Commands to a board through the broker.
struct CommandRunResult {
  /// Nanoseconds from publishing a command (QoS 1, a response topic and correlation data)
  /// to taking the board's reply, in order.
  var roundTrips: [Int64] = []
  /// The same with the broker's `set_tcp_nodelay true`.
  var roundTripsNoDelay: [Int64] = []
  /// Keys without a flood and during one, once for each way of starting the board.
  var floods: [CommandFloodRun] = []
  /// The board's resident and peak resident memory (kB) before and after the oversized
  /// messages, and what was sent.
  var memoryBefore = ProcessCounters()
  var memoryAfter = ProcessCounters()
  var oversizedCount = 0
  var oversizedBytes = 0
}

/// Where a flood of commands comes from.
enum FloodSource {
  /// Another client of the broker publishes `set away N` to the board's command topic.
  case broker
  /// A client of the control socket sends `status` lines (answered at once, no save).
  case controlSocket

  /// "the broker", "the control socket".
  var name: String {
    switch self {
    case .broker: "the broker"
    case .controlSocket: "the control socket"
    }
  }
}

/// Key-to-wire samples (ns) of a board without a flood and during one, in rounds, with
/// the board scheduled one way.
struct CommandFloodRun {
  var scheduling: Scheduling
  var source: FloodSource
  var quiet: [[Int64]] = []
  var flooded: [[Int64]] = []
  /// Commands the flooding client published per second in each flooded round.
  var rates: [Double] = []
  /// Why the run was not made, when it was not.
  var skipped: String?
}

extension Scenarios {
  static let replyTopic = "scoreboardd/bench-replies"

  /// Nanoseconds from the publication of each of `count` commands (`add home +1` and `-1`
  /// in turn, QoS 1, to the master's command topic with a response topic and correlation
  /// data) to the bench client's taking of the board's reply, one after the other, after
  /// `warmUp` ones; with `brokerNoDelay`, the broker sets TCP_NODELAY on its sockets.
  func commandRoundTrips(count: Int, warmUp: Int = 20, brokerNoDelay: Bool) throws -> [Int64] {
    let broker = try LoopbackBroker(noDelay: brokerNoDelay)
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000, keepsState: true,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.masterTopic))
    try master.waitUntilReady()
    let client = try BenchClient(broker, name: "round-trip", subscriptions: [Self.replyTopic])
    // Connected and subscribed before the first command: a command published before the
    // board subscribes is dropped by the broker.
    try askStatus(client, master, deadline: MonotonicClock.now() + 20_000_000_000)
    var samples: [Int64] = []
    samples.reserveCapacity(count)
    for number in 0..<(warmUp + count) {
      master.drain()
      let correlation = Array("c\(number)".utf8)
      let start = MonotonicClock.now()
      guard
        client.client.publish(
          Self.masterTopic + "/command", number % 2 == 0 ? "add home +1" : "add home -1",
          qos: 1, retain: false, responseTopic: Self.replyTopic, correlation: correlation)
      else {
        throw BenchmarkError(description: "the bench client could not publish")
      }
      let deadline = start + 5_000_000_000
      guard
        let (reply, at) = client.waitForMessage(
          deadline: deadline, where: { $0.correlation == correlation })
      else {
        throw BenchmarkError(
          description: "no reply to command \(number)\nthe board's log:\n\(master.log)")
      }
      guard String(decoding: reply.payload, as: UTF8.self).hasPrefix("ok") else {
        throw BenchmarkError(
          description: "command \(number) was answered "
            + "\"\(String(decoding: reply.payload, as: UTF8.self))\"")
      }
      if number >= warmUp {
        samples.append(at - start)
      }
    }
    master.stop()
    return samples
  }

  /// Key-to-wire samples of a master with `[mqtt]`, a state file and a control socket,
  /// `keys` keys per round (home +1 and -1 in turn, a key every 2 ms after the previous
  /// one's answer): in `rounds` rounds without a flood and as many during one, in turns.
  /// During a flood, `rate` commands a second come from `source`: another client
  /// publishes `set away N` (N counting 0 to 99) to the master's command topic at QoS 0,
  /// or sends `status` lines to its control socket; a key's sample ends at the first byte
  /// after which the module shows its home score (the away score changes with the
  /// flood). The board is started as `scheduling` says.
  func keysDuringFlood(
    keys: Int, rounds: Int, rate: Int, scheduling: Scheduling, source: FloodSource
  ) throws -> CommandFloodRun {
    var run = CommandFloodRun(scheduling: scheduling, source: source)
    if let reason = scheduling.unavailableReason {
      run.skipped = reason
      return run
    }
    let broker = try LoopbackBroker()
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000, keepsState: true,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.masterTopic), opensControl: true,
      scheduling: scheduling)
    try master.waitUntilReady()
    guard try waitForRetainedState(broker, Self.masterTopic, seconds: 20, { _ in true }) != nil
    else {
      throw BenchmarkError(description: "the master published no state\n\(master.log)")
    }
    for round in 0..<(2 * rounds) {
      let flooding = round % 2 == 1
      var flooder: Flooder?
      if flooding {
        flooder =
          switch source {
          case .broker: try Flooder(broker: broker, rate: rate)
          case .controlSocket: try Flooder(controlSocket: master.controlPath, rate: rate)
          }
      }
      var samples: [Int64] = []
      samples.reserveCapacity(keys)
      var next = MonotonicClock.now()
      for number in 0..<keys {
        // The line drains between keys, as a wire does: the flood's frames are read.
        while let arrival = master.waitForByte(deadline: next), arrival < next {
          master.drain()
        }
        master.drain()
        let key: Key = number % 2 == 0 ? .homeUp : .homeDown
        let records = master.expect(key)
        let expected = master.expectedText.prefix(2)
        let start = MonotonicClock.now()
        guard master.writeSome(records, from: 0) == records.count else {
          throw BenchmarkError(description: "the master's keypad FIFO is full")
        }
        var shownAt: Int64?
        while shownAt == nil {
          guard let arrival = master.waitForByte(deadline: start + 5_000_000_000) else {
            throw BenchmarkError(
              description: "the board shows \"\(master.shows)\" 5 s after key \(number) "
                + "(expected \"\(expected)\" first)\n\(master.log)")
          }
          master.drain()
          if master.shows.prefix(2) == expected {
            shownAt = arrival
          }
        }
        samples.append(shownAt! - start)
        master.release(key)
        next = max(next + Self.keyInterval, MonotonicClock.now())
      }
      if let flooder {
        run.rates.append(try flooder.finish())
        run.flooded.append(samples)
      } else {
        run.quiet.append(samples)
      }
    }
    master.stop()
    return run
  }

  /// The master's memory before and after `count` commands of `bytes` each (far over the
  /// 128 KiB it announces as its maximum packet size) published to its command topic,
  /// once a small command after them has been answered.
  func oversizedMessages(count: Int, bytes: Int) throws -> (ProcessCounters, ProcessCounters) {
    let broker = try LoopbackBroker()
    let master = try Instance(
      .scoreboardd, programs: programs, baud: 1_000_000, keepsState: true,
      mqtt: MQTTSetup(broker: broker.url, topic: Self.masterTopic))
    try master.waitUntilReady()
    let client = try BenchClient(broker, name: "oversized", subscriptions: [Self.replyTopic])
    // Connected and answering before the figure is read.
    try askStatus(client, master, deadline: MonotonicClock.now() + 20_000_000_000)
    let before = master.counters
    let payload = [UInt8](repeating: UInt8(ascii: "x"), count: bytes)
    for _ in 0..<count {
      client.client.publish(Self.masterTopic + "/command", payload, qos: 1, retain: false)
    }
    try askStatus(client, master, deadline: MonotonicClock.now() + 60_000_000_000)
    let after = master.counters
    master.stop()
    return (before, after)
  }

  /// Publishes `get home` with a reply topic and waits for the answer.
  private func askStatus(_ client: BenchClient, _ master: Instance, deadline: Int64) throws {
    let correlation = Array("status-\(MonotonicClock.now())".utf8)
    while MonotonicClock.now() < deadline {
      client.client.publish(
        Self.masterTopic + "/command", "get home", qos: 1, retain: false,
        responseTopic: Self.replyTopic, correlation: correlation)
      if client.waitForMessage(
        deadline: min(deadline, MonotonicClock.now() + 1_000_000_000),
        where: { $0.correlation == correlation }) != nil
      {
        return
      }
    }
    throw BenchmarkError(description: "the board did not answer `get home`\n\(master.log)")
  }
}

/// A child process of this program that sends commands to the master as fast as asked
/// (`--flood` through the broker, `--flood-control` to its control socket), until its
/// standard input closes.
final class Flooder {
  private let pid: pid_t
  private let input: CInt
  private let output: CInt

  /// Starts a flood through `broker` and waits until the child has connected and begun.
  convenience init(broker: LoopbackBroker, rate: Int) throws {
    try self.init(
      arguments: [
        CommandLine.arguments[0], "--flood", String(broker.port), Scenarios.masterTopic,
        String(rate),
      ])
  }

  /// Starts a flood of the control socket at `controlSocket` and waits until the child
  /// has connected and begun.
  convenience init(controlSocket: String, rate: Int) throws {
    try self.init(
      arguments: [CommandLine.arguments[0], "--flood-control", controlSocket, String(rate)])
  }

  private init(arguments: [String]) throws {
    var toChild: [CInt] = [0, 0]
    var fromChild: [CInt] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
      throw BenchmarkError(description: "pipe")
    }
    for end in toChild + fromChild {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    defer {
      close(toChild[0])
      close(fromChild[1])
    }
    let child: pid_t
    do {
      child = try spawn(arguments, standardInput: toChild[0], standardOutput: fromChild[1])
    } catch {
      close(toChild[1])
      close(fromChild[0])
      throw error
    }
    pid = child
    input = toChild[1]
    output = fromChild[0]
    guard let line = readLine(deadline: MonotonicClock.now() + 20_000_000_000),
      line == "flooding"
    else {
      _ = try? finish()
      throw BenchmarkError(description: "the flooder did not start")
    }
  }

  /// Ends the flood; returns the commands it published per second.
  func finish() throws -> Double {
    close(input)
    let line = readLine(deadline: MonotonicClock.now() + 20_000_000_000)
    close(output)
    var status: CInt = 0
    waitpid(pid, &status, 0)
    guard let line, let rate = Double(line) else {
      throw BenchmarkError(description: "the flooder said \"\(line ?? "nothing")\"")
    }
    return rate
  }

  private func readLine(deadline: Int64) -> String? {
    var bytes: [UInt8] = []
    var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
    while MonotonicClock.now() < deadline {
      guard poll(&entry, 1, 100) > 0 else { continue }
      var byte: UInt8 = 0
      guard read(output, &byte, 1) == 1 else { return nil }
      if byte == UInt8(ascii: "\n") {
        return String(decoding: bytes, as: UTF8.self)
      }
      bytes.append(byte)
    }
    return nil
  }

  /// The child's side (`ScoreboardBenchmark --flood PORT TOPIC RATE`): connects, prints
  /// `flooding`, publishes `set away N` to `TOPIC/command` at QoS 0, RATE a second in
  /// batches of a millisecond, until standard input closes; prints the rate achieved.
  static func run(port: Int, topic: String, rate: Int) -> Never {
    guard
      let client = try? MQTTClient(
        MQTTClient.Options(host: "127.0.0.1", port: port, clientID: "bench-flood-\(getpid())"))
    else {
      print("cannot make an MQTT client")
      exit(1)
    }
    try? client.start()
    var entry = pollfd(fd: client.eventDescriptor, events: Int16(POLLIN), revents: 0)
    while client.nextEvent() != .connected {
      _ = poll(&entry, 1, 1000)
    }
    print("flooding")
    fflush(stdout)
    let perBatch = max(rate / 1000, 1)
    let payloads = (0..<100).map { Array("set away \($0)".utf8) }
    let start = MonotonicClock.now()
    var next = start
    var sent = 0
    var stdinEntry = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while poll(&stdinEntry, 1, 0) == 0 {
      for _ in 0..<perBatch {
        client.publish(topic + "/command", payloads[sent % 100], qos: 0, retain: false)
        sent += 1
      }
      while client.nextEvent() != nil {}
      next += 1_000_000
      MonotonicClock.sleep(until: next)
    }
    let seconds = Double(MonotonicClock.now() - start) / 1e9
    print(format(Double(sent) / seconds, 0))
    fflush(stdout)
    client.stop()
    exit(0)
  }
}

extension Flooder {
  /// The child's side (`ScoreboardBenchmark --flood-control PATH RATE`): connects to the
  /// control socket at PATH, prints `flooding`, sends `status` lines, RATE a second in
  /// batches of 10 ms (a script's lines come in bursts: its pipe's buffer), and reads the
  /// answers as they come, until standard input closes; prints the rate achieved.
  static func runControl(path: String, rate: Int) -> Never {
    guard let socket = try? connectUnix(path: path) else {
      print("cannot connect to \(path)")
      exit(1)
    }
    print("flooding")
    fflush(stdout)
    let perBatch = max(rate / 100, 1)
    let batch = Array(String(repeating: "status\n", count: perBatch).utf8)
    var answers = [UInt8](repeating: 0, count: 65_536)
    let start = MonotonicClock.now()
    var next = start
    var sent = 0
    var stdinEntry = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while poll(&stdinEntry, 1, 0) == 0 {
      guard (try? sendAll(socket, batch)) != nil else {
        print("the control socket closed")
        exit(1)
      }
      sent += perBatch
      while recv(socket, &answers, answers.count, CInt(MSG_DONTWAIT)) > 0 {}
      next += 10_000_000
      MonotonicClock.sleep(until: next)
    }
    let seconds = Double(MonotonicClock.now() - start) / 1e9
    print(format(Double(sent) / seconds, 0))
    fflush(stdout)
    close(socket)
    exit(0)
  }
}

/// The commands section of the MQTT results.
func commandReport(_ result: CommandRunResult) -> String {
  var text = ""
  text +=
    "**Command round trip**: µs from a client's publication of a command (`add home +1` and "
    + "`-1` in turn, QoS 1, with an MQTT 5 response topic and correlation data) to the "
    + "client's taking of the board's reply (QoS 1), one command at a time, after 20 "
    + "warm-up ones. The board has a state file: the reply goes out once the change is "
    + "saved. The client is libmosquitto on a thread of its own, as in the daemon, and "
    + "sets TCP_NODELAY, as the board does; Mosquitto does so on its own sockets only with "
    + "`set_tcp_nodelay true`, so the run is made with its default and with that.\n\n"
  text += "| broker | commands | p50 | p99 | max |\n| --- | --- | --- | --- | --- |\n"
  for (name, samples) in [
    ("default", result.roundTrips), ("`set_tcp_nodelay true`", result.roundTripsNoDelay),
  ] where !samples.isEmpty {
    let trips = samples.sorted()
    text +=
      "| \(name) | \(trips.count) | \(microseconds(percentile(trips, 0.5))) "
      + "| \(microseconds(percentile(trips, 0.99))) | \(microseconds(trips.last ?? 0)) |\n"
  }
  text += "\n"

  text +=
    "**Keys during a command flood**: key-to-wire on a board with `[mqtt]`, a state "
    + "file and a control socket (µs from the `write` of a press to the first byte after "
    + "which the module shows its home score), a key every 2 ms after the previous answer; "
    + "rounds without a flood and rounds while another client publishes `set away N` to the "
    + "board's command topic at QoS 0 in batches of a millisecond, or sends `status` lines "
    + "to its control socket in batches of 10 ms (as a script's pipe delivers them), in "
    + "turns. The board is started by hand (every thread ordinary), and as "
    + "`scoreboardd.service` starts it: the loop's thread `SCHED_FIFO` at the unit's "
    + "`CPUSchedulingPriority=`, every thread it starts ordinary "
    + "(`CPUSchedulingResetOnFork=yes`). The target: p99 during the flood within 2x of p99 "
    + "without.\n\n"
  for run in result.floods {
    text += floodTable(run)
  }
  let before = result.memoryBefore
  let after = result.memoryAfter
  text +=
    "**Memory after oversized commands**: \(result.oversizedCount) commands of "
    + "\(result.oversizedBytes / 1_048_576) MiB published at QoS 1 to the board's command "
    + "topic (it announces a maximum packet size of 128 KiB, so the broker drops them), "
    + "then a small command answered; the board's memory (`/proc/PID/status`, kB) before "
    + "and after.\n\n"
  text += "| | before | after |\n| --- | --- | --- |\n"
  text += "| VmRSS | \(before.residentKilobytes) | \(after.residentKilobytes) |\n"
  text += "| VmHWM (peak) | \(before.peakResidentKilobytes) | \(after.peakResidentKilobytes) |\n"
  return text
}

/// The rounds of one flood run as a table, with a line for all of them.
private func floodTable(_ run: CommandFloodRun) -> String {
  let started =
    switch run.scheduling {
    case .ordinary: "started by hand"
    case .asTheUnit(let priority):
      "as the unit starts it (`SCHED_FIFO` \(priority), reset on fork)"
    }
  let through = "Through \(run.source.name)"
  if let reason = run.skipped {
    return "\(through), \(started): not run (\(reason)).\n\n"
  }
  let quiet = run.quiet.map { $0.sorted() }
  let flooded = run.flooded.map { $0.sorted() }
  let rate = Spread(values: run.rates)
  var text =
    "\(through), \(started): \(quiet.first?.count ?? 0) keys a round, \(rate.text(0)) commands a "
    + "second achieved (median (min–max)).\n\n"
  text += "| round | p50 quiet | p99 quiet | p50 flood | p99 flood | p99 ratio |\n"
  text += "| --- | --- | --- | --- | --- | --- |\n"
  for (index, (calm, flood)) in zip(quiet, flooded).enumerated() {
    let ratio = Double(percentile(flood, 0.99)) / Double(max(percentile(calm, 0.99), 1))
    text +=
      "| \(index + 1) | \(microseconds(percentile(calm, 0.5))) "
      + "| \(microseconds(percentile(calm, 0.99))) | \(microseconds(percentile(flood, 0.5))) "
      + "| \(microseconds(percentile(flood, 0.99))) | \(format(ratio, 2)) |\n"
  }
  let allQuiet = quiet.flatMap { $0 }.sorted()
  let allFlooded = flooded.flatMap { $0 }.sorted()
  let ratio = Double(percentile(allFlooded, 0.99)) / Double(max(percentile(allQuiet, 0.99), 1))
  text +=
    "| all | \(microseconds(percentile(allQuiet, 0.5))) "
    + "| \(microseconds(percentile(allQuiet, 0.99))) "
    + "| \(microseconds(percentile(allFlooded, 0.5))) "
    + "| \(microseconds(percentile(allFlooded, 0.99))) | \(format(ratio, 2)) "
    + "(\(ratio <= 2 ? "within 2x" : "**over 2x**")) |\n\n"
  return text
}
