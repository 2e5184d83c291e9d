// The benchmarks of scoreboardd against a Python peer and a C floor (`make bench`).
//
// Every subject gets the same keys as `input_event` records in a FIFO that stands for its
// evdev keypad, and writes S7S bytes to a pseudo-terminal whose master side this
// program reads and decodes. It prints the results as Markdown on standard output and
// its progress on standard error. See Benchmarks/README.md.
//
//   ScoreboardBenchmark --scoreboardd PATH --python PATH --peer PATH --floor PATH
//                       [--scoreboardd-stripped-bytes N] [--floor-stripped-bytes N] [--quick]
//                       [--latency-only] [--clock-only] [--mqtt-only] [--web-only]
//                       [--clock-seconds N] [--unit-priority N] [--web-pages PATH]
//                       [--instrumented PATH] [--stages-only]
//
// --instrumented names a scoreboardd built with -DSTAGE_TIMES: its stage times (where a
// key's time goes inside the daemon) are measured and reported; --stages-only runs that
// alone.
// --latency-only runs the key-to-wire runs alone (in blocks, interleaved, in a row, and the
// stage times) and prints their tables: for working on the daemon's path from a key to
// the wire. --clock-only runs the game clock scenario
// alone; --clock-seconds sets its length (600 s, 20 s with --quick). --mqtt-only runs the
// MQTT scenario alone (mirror latency, CPU per published change, keys while the broker
// dies and comes back, command round trips, keys during a command flood, memory after
// oversized commands). --web-only runs the web scenario alone (a key to the pages' event
// streams with 0, 1 and 100 pages, the CPU and memory they cost, a phone's command to the
// wire); --web-pages is the folder of the pages (the repository's `web`), without which the
// web scenario is skipped. --unit-priority is the real-time priority scoreboardd.service
// gives the daemon's loop: the flood's keys are measured as the unit starts the daemon too.

@preconcurrency import Glibc
import LinuxIO

// MARK: - Arguments

// The flooding client of the MQTT scenario, run as a child of this program.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--flood",
  let port = Int(CommandLine.arguments[2]), let rate = Int(CommandLine.arguments[4])
{
  Flooder.run(port: port, topic: CommandLine.arguments[3], rate: rate)
}
// The flooding client of the control socket, run as a child of this program.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--flood-control",
  let rate = Int(CommandLine.arguments[3])
{
  Flooder.runControl(path: CommandLine.arguments[2], rate: rate)
}

// The pseudo-terminal writer of the web scenario's check, run as a child of this program.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--pty-writer",
  let spin = Int64(CommandLine.arguments[3])
{
  PseudoTerminalCheck.runWriter(slave: CommandLine.arguments[2], spin: spin)
}

var options: [String: String] = [:]
var quick = false
var latencyOnly = false
var longRunOnly = false
var publishOnly = false
var inPlayOnly = false
var clockOnly = false
var mqttOnly = false
var commandsOnly = false
var webOnly = false
var stagesOnly = false
var argumentList = CommandLine.arguments.dropFirst()
while let argument = argumentList.popFirst() {
  if argument == "--quick" {
    quick = true
  } else if argument == "--latency-only" {
    latencyOnly = true
  } else if argument == "--long-run-only" {
    longRunOnly = true
  } else if argument == "--in-play-only" {
    inPlayOnly = true
  } else if argument == "--publish-only" {
    publishOnly = true
  } else if argument == "--clock-only" {
    clockOnly = true
  } else if argument == "--mqtt-only" {
    mqttOnly = true
  } else if argument == "--commands-only" {
    commandsOnly = true
  } else if argument == "--web-only" {
    webOnly = true
  } else if argument == "--stages-only" {
    stagesOnly = true
  } else if argument.hasPrefix("--"), let value = argumentList.popFirst() {
    options[String(argument.dropFirst(2))] = value
  } else {
    fputs("usage: see Benchmarks/ScoreboardBenchmark/main.swift\n", stderr)
    exit(64)
  }
}
guard let scoreboardd = options["scoreboardd"], let python = options["python"],
  let peerScript = options["peer"], let floorProgram = options["floor"]
else {
  fputs("ScoreboardBenchmark: --scoreboardd, --python, --peer and --floor are required\n", stderr)
  exit(64)
}
signal(SIGPIPE, SIG_IGN)

let scenarios = Scenarios(
  programs: Programs(
    scoreboardd: scoreboardd, python: python, peerScript: peerScript, floor: floorProgram,
    unitPriority: options["unit-priority"].flatMap { Int($0) }),
  scale: quick ? 0.05 : 1)

func progress(_ text: String) {
  fputs("bench: \(text)\n", stderr)
}

// MARK: - Runs

let clockSeconds = Double(options["clock-seconds"] ?? "") ?? (quick ? 20 : 600)
/// The game clock scenario (Clocks.swift), for `clockSeconds`.
func runClocks() throws -> ClockRunResult {
  progress(
    "game clocks on S7S modules at 9600 baud, tenths, seconds and stopped at once "
      + "(\(format(clockSeconds, 0)) s)")
  return try scenarios.clocks(seconds: clockSeconds)
}
if clockOnly {
  print(clockReport(try runClocks()), terminator: "")
  exit(0)
}

let mirrorKeys = scenarios.count(500)
let publishedChanges = scenarios.count(2_000)
let publishingRounds = quick ? 1 : 3
let outageKeys = scenarios.count(1_000)
let commandCount = scenarios.count(500)
let commandFloodKeys = scenarios.count(500)
let commandFloodRounds = quick ? 1 : 3
let commandFloodRate = 10_000
if publishOnly {
  let broker = try LoopbackBroker()
  for round in 1...publishingRounds {
    for qos in [1, 0, nil] {
      let run = try scenarios.publishingCost(
        changes: publishedChanges, broker: broker, mqtt: qos != nil, qos: qos)
      print(
        "round \(round), \(qos.map { "qos \($0)" } ?? "without [mqtt]"): "
          + "\(format(run.scheduledPerChange / 1000, 2)) µs per change")
    }
  }
  exit(0)
}

/// The MQTT scenario (MQTT.swift); nil when mosquitto is not installed.
func runMQTT() throws -> MQTTRunResult? {
  guard LoopbackBroker.isAvailable else {
    progress("MQTT: mosquitto is not installed; skipped")
    return nil
  }
  var result = MQTTRunResult(changes: publishedChanges)
  progress("MQTT: mirror latency, master to mirror through the broker (\(mirrorKeys) keys)")
  result.mirrorSamples = try scenarios.mirrorLatency(keys: mirrorKeys)
  progress(
    "MQTT: CPU per published change (\(publishingRounds) × \(publishedChanges) "
      + "changes, with and without [mqtt])")
  let broker = try LoopbackBroker()
  for round in 0..<publishingRounds {
    for mqtt in round % 2 == 0 ? [true, false] : [false, true] {
      let run = try scenarios.publishingCost(
        changes: publishedChanges, broker: broker, mqtt: mqtt)
      if mqtt {
        result.withMQTT.append(run)
      } else {
        result.withoutMQTT.append(run)
      }
    }
  }
  progress("MQTT: key latency while the broker dies and comes back (\(outageKeys) keys)")
  result.outage = try scenarios.brokerOutage(keys: outageKeys)
  result.commands = try runCommands()
  return result
}
/// The commands part of the MQTT scenario (MQTTCommands.swift).
func runCommands() throws -> CommandRunResult {
  var result = CommandRunResult()
  progress("MQTT: command round trips at QoS 1 (\(commandCount) commands, two brokers)")
  result.roundTrips = try scenarios.commandRoundTrips(count: commandCount, brokerNoDelay: false)
  result.roundTripsNoDelay = try scenarios.commandRoundTrips(
    count: commandCount, brokerNoDelay: true)
  let schedulings: [Scheduling] =
    [.ordinary] + (scenarios.programs.unitPriority.map { [.asTheUnit(priority: $0)] } ?? [])
  for source in [FloodSource.broker, .controlSocket] {
    progress(
      "MQTT: keys with and without a flood of \(commandFloodRate) commands a second "
        + "through \(source.name) (\(commandFloodRounds) × \(commandFloodKeys) keys each)")
    for scheduling in schedulings {
      result.floods.append(
        try scenarios.keysDuringFlood(
          keys: commandFloodKeys, rounds: commandFloodRounds, rate: commandFloodRate,
          scheduling: scheduling, source: source))
    }
  }
  progress("MQTT: memory after oversized commands")
  result.oversizedCount = 20
  result.oversizedBytes = 4 << 20
  (result.memoryBefore, result.memoryAfter) = try scenarios.oversizedMessages(
    count: result.oversizedCount, bytes: result.oversizedBytes)
  return result
}
if commandsOnly {
  guard LoopbackBroker.isAvailable else {
    progress("MQTT: mosquitto is not installed; skipped")
    exit(0)
  }
  print(commandReport(try runCommands()), terminator: "")
  exit(0)
}
if mqttOnly {
  print(mqttReport(try runMQTT()), terminator: "")
  exit(0)
}

let webKeys = scenarios.count(1_000)
let webRounds = quick ? 1 : 3
let webPageCounts = [0, 1, 100]
let webCommandCount = scenarios.count(1_000)
let webPagesFolder = options["web-pages"]
let webPseudoTerminalCount = scenarios.count(500)
/// The web scenario (Web.swift).
func runWeb() throws -> WebRunResult {
  var result = WebRunResult(keys: webKeys, rounds: webRounds)
  guard let pages = webPagesFolder else {
    result.skipped = "no --web-pages folder given"
    progress("web: skipped (\(result.skipped!))")
    return result
  }
  progress(
    "web: a key to 0, 1 and 100 pages' event streams (\(webRounds) × \(webKeys) keys "
      + "with each)")
  result.phases = try scenarios.webPages(
    setup: WebSetup(port: try LoopbackBroker.freePort(), pages: pages), keys: webKeys,
    rounds: webRounds, pageCounts: webPageCounts)
  progress("web: a phone's command to the wire, and the control socket's (\(webCommandCount) each)")
  result.commands = try scenarios.webCommands(
    setup: WebSetup(port: try LoopbackBroker.freePort(), pages: pages), count: webCommandCount)
  progress("web: what a pseudo-terminal adds when its writer keeps the CPU")
  for spin: Int64 in [0, 50_000, 300_000] {
    result.pseudoTerminal.append(
      (spin, try PseudoTerminalCheck.measure(spin: spin, count: webPseudoTerminalCount)))
  }
  return result
}
if webOnly {
  print(webReport(try runWeb()), terminator: "")
  exit(0)
}

let inPlaySeconds = quick ? 5.0 : 20.0
let inPlayRuns = quick ? 1 : 3
/// The board in play (BoardInPlay.swift), alone, with [mqtt] and with pages.
func runBoardInPlay() throws -> [[BoardInPlayRun]] {
  let broker = LoopbackBroker.isAvailable ? try LoopbackBroker() : nil
  return try (1...inPlayRuns).map { run in
    progress(
      "a board in play, run \(run) of \(inPlayRuns) (\(format(inPlaySeconds, 0)) s alone, "
        + "with [mqtt] and with pages)")
    return try scenarios.boardInPlay(
      seconds: inPlaySeconds, broker: broker, webPages: webPagesFolder)
  }
}
if inPlayOnly {
  print(boardInPlayTable(try runBoardInPlay()), terminator: "")
  exit(0)
}

let longRunKeys = scenarios.count(2_000)
let longRunCount = quick ? 1 : 3
/// The long runs (LongRun.swift): each subject's keys in a row, a thread draining the line.
func runLongRuns() throws -> [[Scenarios.LongRunSubject: LongRun]] {
  try (1...longRunCount).map { run in
    progress(
      "key-to-wire, long run \(run) of \(longRunCount) (\(longRunKeys) keys in a row to each "
        + "subject, a thread draining the line)")
    return try scenarios.keyToWireLongRun(keys: longRunKeys)
  }
}
if longRunOnly {
  print(longRunTable(try runLongRuns()), terminator: "")
  exit(0)
}

let stageRuns = quick ? 1 : 3
let stageKeys = scenarios.count(2_000)
let instrumented = options["instrumented"]
/// The instrumented build's runs (StageTimes.swift); empty without `--instrumented`.
func runStageTimes() throws -> [StageTimesRun] {
  guard let instrumented else {
    progress("stage times: skipped (no --instrumented build given)")
    return []
  }
  return try (1...stageRuns).map { run in
    progress(
      "stage times, run \(run) of \(stageRuns) (the instrumented build alone, \(stageKeys) "
        + "keys)")
    return try scenarios.stageTimes(instrumented: instrumented, keys: stageKeys)
  }
}
if stagesOnly {
  print(stageTimesTable(try runStageTimes()), terminator: "")
  exit(0)
}

/// How the key-to-wire runs hand out their keys: in blocks of 100 keys per subject, so
/// that each has the machine to itself between its keys (the targets' figure), or key by
/// key, so that each key finds the caches full of the other subjects' work.
enum KeyOrder: CaseIterable {
  case blocks
  case interleaved

  var block: Int { self == .blocks ? 100 : 1 }
  var words: String { self == .blocks ? "in blocks of 100 keys" : "interleaved key by key" }
}

/// One subject's figures over the runs of one key order, in µs.
struct LatencyFigures {
  var p50: [Double] = []
  var p99: [Double] = []
  var max: [Double] = []
  var cpu: [Double] = []
  /// The p50 of the keys answered on the harness's own processor.
  var sameProcessorP50: [Double] = []
  /// The percentage of keys whose answer reached the harness on the other processor.
  var crossedPercent: [Double] = []
}

let latencyRuns = quick ? 2 : 5
let latencyKeys = scenarios.count(2_000)
var latency: [KeyOrder: [Subject: LatencyFigures]] = [:]
for run in 1...latencyRuns {
  for order in KeyOrder.allCases {
    progress(
      "key-to-wire, run \(run) of \(latencyRuns), \(order.words) (\(latencyKeys) keys to each "
        + "subject)")
    for (subject, figures) in try scenarios.keyToWire(keys: latencyKeys, block: order.block) {
      let samples = figures.samples.sorted()
      var entry = latency[order]?[subject] ?? LatencyFigures()
      entry.p50.append(Double(percentile(samples, 0.5)) / 1000)
      entry.p99.append(Double(percentile(samples, 0.99)) / 1000)
      entry.max.append(Double(samples.last ?? 0) / 1000)
      entry.cpu.append(figures.cpuPerKey / 1000)
      // (No figure, not a crash, in the unlikely run whose every key crossed.)
      let sameProcessor = figures.sameProcessorSamples.sorted()
      entry.sameProcessorP50.append(
        sameProcessor.isEmpty ? .nan : Double(percentile(sameProcessor, 0.5)) / 1000)
      entry.crossedPercent.append(
        100 * Double(samples.count - figures.sameProcessorSamples.count) / Double(samples.count))
      latency[order, default: [:]][subject] = entry
    }
  }
}

let longRuns = try runLongRuns()
let stageTimes = try runStageTimes()

/// The key-to-wire table of one key order: each run's p50 and p99 of every subject, the
/// ratios, the CPU time each subject took per key (press and release), the share of keys
/// answered through the other processor, and the p50 of the others.
@MainActor func keyToWireTable(_ order: KeyOrder) -> String {
  let figures = latency[order]!
  var text = "| run | scoreboardd p50 / p99 | peer p50 / p99 | floor p50 / p99 "
  text += "| scoreboardd / peer (p50) | scoreboardd / floor (p50) | scoreboardd / floor (p99) "
  text += "| CPU per key: scoreboardd / peer / floor "
  text += "| through the other processor, %: scoreboardd / peer / floor "
  text += "| on one processor, p50: scoreboardd / floor |\n"
  text += "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
  for run in 0..<latencyRuns {
    let p50 = Subject.allCases.map { figures[$0]!.p50[run] }
    let p99 = Subject.allCases.map { figures[$0]!.p99[run] }
    let cpu = Subject.allCases.map { format(figures[$0]!.cpu[run]) }
    let crossed = Subject.allCases.map { format(figures[$0]!.crossedPercent[run], 0) }
    let sameP50 = [
      figures[.scoreboardd]!.sameProcessorP50[run], figures[.floor]!.sameProcessorP50[run],
    ]
    var cells = ["\(run + 1)"]
    cells += (0..<3).map { "\(format(p50[$0])) / \(format(p99[$0]))" }
    cells += [ratio(p50[0], p50[1]), ratio(p50[0], p50[2]), ratio(p99[0], p99[2])]
    cells += [cpu.joined(separator: " / "), crossed.joined(separator: " / ")]
    let onOneProcessor = "\(format(sameP50[0])) / \(format(sameP50[1]))"
    cells.append("\(onOneProcessor) (\(ratio(sameP50[0], sameP50[1])))")
    text += "| " + cells.joined(separator: " | ") + " |\n"
  }
  return text
}

/// Both key-to-wire tables, each under its heading.
@MainActor func keyToWireTables() -> String {
  KeyOrder.allCases.map { order in
    "Keys \(order.words), µs from the write of the press to the first byte on the display, "
      + "and CPU µs per key:\n\n" + keyToWireTable(order)
  }.joined(separator: "\n")
}

if latencyOnly {
  print(keyToWireTables(), terminator: "")
  print("\n" + longRunTable(longRuns), terminator: "")
  print("\n" + stageTimesTable(stageTimes), terminator: "")
  exit(0)
}

let bursts = quick ? 2 : 5
let burstKeys = 1000
var staleness: [Subject: [Double]] = [:]
for subject in Subject.allCases {
  progress("slow-wire staleness, \(subject) (\(bursts) bursts of \(burstKeys) keys at 9600 baud)")
  staleness[subject] = try scenarios.staleness(subject, bursts: bursts, keys: burstKeys).map {
    Double($0) / 1e6
  }
}
/// A full S7S frame, as the peer writes: 4 raw digit commands of 2 bytes.
let frameBytes = 8
let frameTime = Double(frameBytes) * 1000 / 960

let idleSeconds = quick ? 6.0 : 30.0
let watchdogSeconds = 10
progress("idle and editing, every subject at once (\(Int(idleSeconds)) s)")
let idle = try scenarios.idle(seconds: idleSeconds, windows: 6, watchdogSeconds: watchdogSeconds)

let floodRuns = 3
let floodKeys = scenarios.count(100_000)
var floods: [Subject: (residentBefore: Int, runs: [Scenarios.FloodRun])] = [:]
for subject in Subject.allCases {
  progress("flood, \(subject) (\(floodRuns) floods of \(floodKeys) keys)")
  floods[subject] = try scenarios.flood(subject, runs: floodRuns, keys: floodKeys)
}

let starts = quick ? 5 : 20
var startUps: [Subject: [Scenarios.StartUp]] = [:]
for run in 1...starts {
  if run == 1 || run == starts {
    progress("start-up, run \(run) of \(starts)")
  }
  for subject in Subject.allCases {
    startUps[subject, default: []].append(try scenarios.startUp(subject))
  }
}

let mqttResult = try runMQTT()

let webResult = try runWeb()

let clockResult = try runClocks()

let inPlay = try runBoardInPlay()

// MARK: - Report

var report = ""
@MainActor func line(_ text: String = "") {
  report += text + "\n"
}
@MainActor func row(_ cells: [String]) {
  line("| " + cells.joined(separator: " | ") + " |")
}

let latencyP50 = Subject.allCases.map { Spread(values: latency[.blocks]![$0]!.p50) }
let latencyP99 = Subject.allCases.map { Spread(values: latency[.blocks]![$0]!.p99) }
let latencyMax = Subject.allCases.map { Spread(values: latency[.blocks]![$0]!.max) }
let interleavedP50 = Subject.allCases.map { Spread(values: latency[.interleaved]![$0]!.p50) }
let latencyCPU = Subject.allCases.map { Spread(values: latency[.blocks]![$0]!.cpu) }
let interleavedCPU = Subject.allCases.map { Spread(values: latency[.interleaved]![$0]!.cpu) }
let sameProcessorP50 = Subject.allCases.map {
  Spread(values: latency[.blocks]![$0]!.sameProcessorP50)
}
let crossedPercent = Subject.allCases.map { Spread(values: latency[.blocks]![$0]!.crossedPercent) }
let stale = Subject.allCases.map { Spread(values: staleness[$0]!) }
let idleWakeups = Subject.allCases.map { Spread(values: idle.wakeupsPerSecond[$0]!) }
let cpuPerKey = Subject.allCases.map { subject in
  Spread(values: floods[subject]!.runs.map { $0.cpuPerKey / 1000 })
}
let scheduledPerKey = Subject.allCases.map { subject in
  Spread(values: floods[subject]!.runs.map { $0.scheduledPerKey / 1000 })
}
let residentAfterFirst = Subject.allCases.map {
  Double(floods[$0]!.runs.first!.after.residentKilobytes)
}
let residentAfterLast = Subject.allCases.map {
  Double(floods[$0]!.runs.last!.after.residentKilobytes)
}
let firstByte = Subject.allCases.map { subject in
  Spread(values: startUps[subject]!.map { Double($0.firstByte) / 1e6 })
}
let readyTimes = startUps[.scoreboardd]!.compactMap(\.ready).map { Double($0) / 1e6 }
let ready = Spread(values: readyTimes)
let sortedReady = readyTimes.sorted()
let readyP10 = sortedReady[Int(Double(sortedReady.count - 1) * 0.1)]
let readyP90 = sortedReady[Int(Double(sortedReady.count - 1) * 0.9)]

/// One row of the figures table from a spread per subject (floor column optional).
@MainActor func comparisonRow(
  _ name: String, _ values: [Spread], digits: Int = 1, floor: String? = nil
) {
  let floorMedian = values[2].median
  row([
    name, values[0].text(digits), values[1].text(digits), floor ?? values[2].text(digits),
    ratio(values[0].median, values[1].median),
    floor == nil ? ratio(values[0].median, floorMedian) : "–",
  ])
}

line("## Targets")
line()
row(["target", "measured", "met"])
row(["---", "---", "---"])
let p50Ratio = latencyP50[0].median / latencyP50[2].median
let p50PeerRatio = latencyP50[0].median / latencyP50[1].median
func met(_ condition: Bool) -> String { condition ? "yes" : "**no**" }
/// A floor slower than another subject measures the harness, not the floor: such a
/// ratio proves nothing either way.
let floorIsFastest = latencyP50[2].median <= min(latencyP50[0].median, latencyP50[1].median)
func metAgainstFloor(_ condition: Bool) -> String {
  floorIsFastest ? met(condition) : "unproven: the floor is not the fastest subject"
}
row([
  "key-to-wire p50 ahead of the Python peer (keys in blocks)",
  "\(format(latencyP50[0].median)) µs vs \(format(latencyP50[1].median)) µs: "
    + "\(format(p50PeerRatio, 2))x",
  met(p50PeerRatio < 1),
])
row([
  "key-to-wire p50 within 1.5x of the floor (keys in blocks)",
  "\(format(latencyP50[0].median)) µs vs \(format(latencyP50[2].median)) µs: "
    + "\(format(p50Ratio, 2))x",
  metAgainstFloor(p50Ratio <= 1.5),
])
/// The long runs' p50 and CPU per key, median over the runs, of one subject.
func longRunMedian(_ kind: Scenarios.LongRunSubject, cpu: Bool = false) -> Double {
  Spread(
    values: longRuns.map { run in
      cpu
        ? run[kind]!.cpuPerKey / 1000
        : Double(percentile(run[kind]!.samples.sorted(), 0.5)) / 1000
    }
  ).median
}
/// A shape's ratio to its floor, named, with a note (the ratio to another reference).
struct ShapeRatio {
  var shape: String
  var ratio: Double
  var note = ""

  var text: String { "\(shape) \(format(ratio, 2))x\(note)" }
}
/// scoreboardd's ratios to the floor in every shape; with a state file, to the floor that
/// saves as often, and to the floor in a note.
func shapeRatios(
  blocks: Double, interleaved: Double, inARow: (Scenarios.LongRunSubject) -> Double,
  stateFileShape: String
) -> [ShapeRatio] {
  [
    ShapeRatio(shape: "in blocks", ratio: blocks),
    ShapeRatio(shape: "interleaved", ratio: interleaved),
    ShapeRatio(
      shape: stateFileShape, ratio: inARow(.scoreboardd) / inARow(.savingFloor),
      note: " (\(format(inARow(.scoreboardd) / inARow(.floor), 2))x of the floor)"),
    ShapeRatio(
      shape: "in a row, no state file",
      ratio: inARow(.scoreboarddWithoutStateFile) / inARow(.floor)),
  ]
}
let p50Ratios = shapeRatios(
  blocks: latencyP50[0].median / latencyP50[2].median,
  interleaved: interleavedP50[0].median / interleavedP50[2].median,
  inARow: { longRunMedian($0) }, stateFileShape: "in a row, state file, to the saving floor")
row([
  "key-to-wire p50 within 1.3x of the floor in every shape",
  p50Ratios.map(\.text).joined(separator: ", "),
  metAgainstFloor(p50Ratios.allSatisfy { $0.ratio <= 1.3 }),
])
let cpuRatios = shapeRatios(
  blocks: latencyCPU[0].median / latencyCPU[2].median,
  interleaved: interleavedCPU[0].median / interleavedCPU[2].median,
  inARow: { longRunMedian($0, cpu: true) },
  stateFileShape: "in a row, state file, to the saving floor (every thread)")
row([
  "CPU per key within 1.5x of the floor in every shape",
  cpuRatios.map(\.text).joined(separator: ", "),
  met(cpuRatios.allSatisfy { $0.ratio <= 1.5 }),
])
let clockLags = [
  ("tenths", LagSummary(clockResult.tenths, seconds: clockResult.seconds)),
  ("M:SS", LagSummary(clockResult.wholeSeconds, seconds: clockResult.seconds)),
].compactMap { name, lag in lag.map { (name, $0) } }
row([
  "clock frame lag p50 under 0.2 ms and p99 under 0.5 ms, never early",
  clockLags.map {
    "\($0.0): p50 \(format($0.1.p50)) µs, p99 \(format($0.1.p99)) µs, min \(format($0.1.min)) µs"
  }.joined(separator: "; ")
    + (LagSummary(clockResult.floorTicks, seconds: clockResult.seconds).map {
      " (the C floor's tick: p50 \(format($0.p50)) µs, p99 \(format($0.p99)) µs)"
    } ?? ""),
  met(
    clockLags.count == 2
      && clockLags.allSatisfy { $0.1.p50 < 200 && $0.1.p99 < 500 && $0.1.min >= 0 }),
])
if let mqttResult {
  let publishing =
    Spread(values: mqttResult.withMQTT.map { $0.scheduledPerChange / 1000 }).median
    - Spread(values: mqttResult.withoutMQTT.map { $0.scheduledPerChange / 1000 }).median
  row([
    "CPU per published change under 20 µs (a key every 2 ms)",
    "\(format(publishing, 1)) µs", met(publishing < 20),
  ])
}
let privateKilobytes = Double(floods[.scoreboardd]!.runs.last!.after.anonymousKilobytes)
row([
  "private memory (RssAnon) under 1 MB beyond the libraries",
  "\(format(privateKilobytes, 0)) kB after \(floodRuns * floodKeys) keys",
  met(privateKilobytes < 1024),
])
row([
  "staleness after a 1,000-key burst at 9600 baud within two frame times "
    + "(\(format(2 * frameTime)) ms)",
  "\(format(stale[0].median)) ms (worst \(format(stale[0].maximum)) ms)",
  met(stale[0].maximum <= 2 * frameTime),
])
let idleWakeupCount =
  (idle.wakeupsPerSecond[.scoreboardd] ?? []).reduce(0, +)
  * idle.seconds / Double(idle.wakeupsPerSecond[.scoreboardd]?.count ?? 1)
row([
  "zero wakeups while idle (\(Int(idle.seconds)) s, watchdog off)",
  "\(format(idleWakeupCount, 0)) wakeups",
  met(idleWakeupCount.rounded() == 0),
])
let residentGrowth = residentAfterLast[0] - residentAfterFirst[0]
row([
  "RSS under 8 MB and flat",
  "\(format(residentAfterLast[0] / 1024, 2)) MB after \(floodRuns * floodKeys) keys; "
    + "\(format(residentGrowth, 0)) kB from key \(floodKeys) to \(floodRuns * floodKeys)",
  met(residentAfterLast[0] < 8 * 1024 && residentGrowth <= 64),
])
row([
  "start-up (exec to READY=1) under 50 ms",
  "\(format(ready.median)) ms median",
  met(ready.median < 50),
])
line()

line("What limits the targets not met, and how far to trust each: see \"Reading the results\".")
line()

line("## Key to wire")
line()
line(
  "Each run gives each subject \(latencyKeys) keys, one every 2 ms, first in blocks of 100 "
    + "keys per subject, then interleaved key by key (Benchmarks/README.md).")
line()
report += keyToWireTables()
line()
line(
  "Keys in a row: \(longRunKeys) keys to each subject in turn, one every 2 ms, each press "
    + "written with its release, while a thread of the harness drains the line "
    + "(Benchmarks/README.md); scoreboardd with a state file (as installed) and without "
    + "one, and the floor without one and with one, saved as often as scoreboardd saves its "
    + "own (`floor --save`, the reference of scoreboardd with a state file). µs, and CPU µs "
    + "per key over every thread:")
line()
report += longRunTable(longRuns)
line()
if !stageTimes.isEmpty {
  line(
    "Where a key press's time goes inside scoreboardd: the build made for it (`-DSTAGE_TIMES`), "
      + "alone, \(stageKeys) keys in blocks as above; µs from the stage before, from the loop's "
      + "wait's return to its next wait (Benchmarks/README.md):")
  line()
  report += stageTimesTable(stageTimes)
  line()
}

line("## Figures")
line()
line(
  "Median over the runs, with the range (min–max) across runs or sampling windows in "
    + "brackets. Ratios compare medians.")
line()
row([
  "figure", "scoreboardd", "peer (Python)", "floor (C)", "scoreboardd / peer",
  "scoreboardd / floor",
])
row(["---", "---", "---", "---", "---", "---"])
comparisonRow(
  "key-to-wire p50, µs (\(latencyRuns) runs of \(latencyKeys) keys each, in blocks)",
  latencyP50)
comparisonRow("key-to-wire p99, µs", latencyP99)
comparisonRow(
  "keys in blocks answered through the other processor (the pseudo-terminal's worker "
    + "woken there), %", crossedPercent, digits: 0)
comparisonRow(
  "key-to-wire p50 of the keys in blocks answered on the harness's processor, µs",
  sameProcessorP50)
comparisonRow("key-to-wire max, µs", latencyMax)
comparisonRow("CPU per key (press and release) at a key every 2 ms, µs", latencyCPU)
comparisonRow("key-to-wire p50, µs, keys interleaved key by key", interleavedP50)
comparisonRow("CPU per key, keys interleaved, µs", interleavedCPU)
row([
  "staleness after \(burstKeys) keys at 9600 baud, ms (\(bursts) bursts)", stale[0].text(),
  stale[1].text(), "\(format(frameTime)) (one frame's wire time)",
  ratio(stale[0].median, stale[1].median), ratio(stale[0].median, frameTime),
])
comparisonRow(
  "wakeups/s idle (voluntary context switches; 6 windows of \(format(idle.seconds / 6, 0)) s)",
  idleWakeups, digits: 2)
let idleCPU = Subject.allCases.map { Double(idle.cpu[$0] ?? 0) / 1e6 }
row([
  "CPU time idle over \(Int(idle.seconds)) s, ms", format(idleCPU[0], 3), format(idleCPU[1], 3),
  format(idleCPU[2], 3), "–", "–",
])
row([
  "wakeups/s while a field is edited (500 ms blink)",
  Spread(values: idle.editingWakeupsPerSecond).text(2), "n/a (no editing)", "n/a", "–", "–",
])
row([
  "preemptions/s while editing (involuntary context switches)",
  format(idle.editingPreemptionsPerSecond, 2), "n/a", "n/a", "–", "–",
])
row([
  "CPU time while editing, \(Int(idle.seconds)) s, ms", format(Double(idle.editingCPU) / 1e6, 3),
  "n/a", "n/a", "–", "–",
])
row([
  "wakeups/s idle with WATCHDOG_USEC=\(watchdogSeconds) s",
  Spread(values: idle.watchdogWakeupsPerSecond).text(2)
    + " (\(idle.watchdogPings) WATCHDOG=1 in \(Int(idle.seconds)) s)",
  "n/a", "n/a", "–", "–",
])
let residentIdle = Subject.allCases.map { Double(idle.residentKilobytes[$0] ?? 0) }
row(
  ["RSS idle, kB"] + residentIdle.map { format($0, 0) }
    + [ratio(residentIdle[0], residentIdle[1]), ratio(residentIdle[0], residentIdle[2])])
row(
  ["RSS after \(floodKeys) keys, kB"] + residentAfterFirst.map { format($0, 0) }
    + [
      ratio(residentAfterFirst[0], residentAfterFirst[1]),
      ratio(residentAfterFirst[0], residentAfterFirst[2]),
    ])
row(
  ["RSS after \(floodRuns * floodKeys) keys, kB"] + residentAfterLast.map { format($0, 0) }
    + [
      ratio(residentAfterLast[0], residentAfterLast[1]),
      ratio(residentAfterLast[0], residentAfterLast[2]),
    ])
let peakResident = Subject.allCases.map {
  Double(floods[$0]!.runs.last!.after.peakResidentKilobytes)
}
row(
  ["peak RSS (VmHWM) of the flood, kB"] + peakResident.map { format($0, 0) }
    + [ratio(peakResident[0], peakResident[1]), ratio(peakResident[0], peakResident[2])])
let binaryBytes = Double(options["scoreboardd-stripped-bytes"] ?? "0") ?? 0
let floorBytes = Double(options["floor-stripped-bytes"] ?? "0") ?? 0
let peerBytes = Double(options["peer-bytes"] ?? "0") ?? 0
row([
  "program size, kB (stripped binary; the peer: its script, plus Python and pyserial)",
  format(binaryBytes / 1024, 0), format(peerBytes / 1024, 1), format(floorBytes / 1024, 1), "–",
  "–",
])
row([
  "start-up, exec to READY=1, ms (\(starts) starts)",
  "\(format(ready.median)) (p10–p90 \(format(readyP10))–\(format(readyP90)), "
    + "\(format(ready.minimum))–\(format(ready.maximum)))",
  "n/a (no sd_notify)", "n/a", "–", "–",
])
comparisonRow("start-up, exec to the first byte on the display, ms", firstByte)
comparisonRow(
  "CPU (user+sys) per key over \(floodKeys)-key floods, µs (\(floodRuns) floods)", cpuPerKey,
  digits: 2)
comparisonRow("the same from /proc/PID/schedstat, µs", scheduledPerKey, digits: 2)
line()

line("## What the subjects do per key (flood)")
line()
line(
  "Counted by the kernel over the floods (/proc/PID/io syscr and syscw, /proc/PID/status "
    + "context switches): what limits each subject's cost per key.")
line()
row(["per key", "scoreboardd", "peer (Python)", "floor (C)"])
row(["---", "---", "---", "---"])
@MainActor func perKey(_ name: String, _ value: (Scenarios.FloodRun) -> Double) {
  row(
    [name]
      + Subject.allCases.map { subject in
        Spread(values: floods[subject]!.runs.map(value)).text(2)
      })
}
perKey("read system calls", \.readsPerKey)
perKey("write system calls", \.writesPerKey)
perKey("wakeups (voluntary context switches)", \.wakeupsPerKey)
perKey("flood throughput, thousand keys/s") { Double($0.keys) / $0.seconds / 1000 }
let floorStaleness = staleness[.floor]!
line()
line(
  "The floor program answers every key, so after a burst its line is "
    + "\(format(Spread(values: floorStaleness).median)) ms behind "
    + "(\(burstKeys) answers of \(Instance.floorFrameSize) bytes at 960 bytes/s); the "
    + "staleness row compares with the physical floor instead, one full frame "
    + "(\(frameBytes) bytes) on the wire.")

line()
report += mqttReport(mqttResult)

line()
report += webReport(webResult)

line()
report += clockReport(clockResult)

line()
line("## A board in play")
line()
line(
  "One scoreboardd with the game clock in tenths (59.9, the S7S module at 9600 baud) and a "
    + "24 s shot clock on a second display, both running, for \(format(inPlaySeconds, 0)) s "
    + "in each of \(inPlayRuns) runs: alone, with `[mqtt]` connected to a loopback broker, "
    + "and with 3 pages on its event stream. Median (min–max) over the runs.")
line()
report += boardInPlayTable(inPlay)

print(report, terminator: "")
