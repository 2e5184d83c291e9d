@preconcurrency import Glibc
import LinuxIO
import TestSupport

// The web scenario: a release scoreboardd with `[web]` on a loopback port, pages connected
// to its event stream (raw socket clients of the harness, not a browser), and a paired
// phone's commands: what a key costs to reach the pages, what the pages cost the board,
// and a tap on the phone to the wire.

/// The pages connected to a board's event stream, and the board's display, read together:
/// every socket is drained as its bytes come (a page that does not read is dropped once
/// 256 KiB wait for it).
final class EventStreamPool {
  let board: Instance
  let setup: WebSetup
  private(set) var clients: [EventStreamClient] = []
  private var entries: [pollfd] = []
  private let buffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: 1 << 16, alignment: 16)

  init(board: Instance, setup: WebSetup) {
    self.board = board
    self.setup = setup
    rebuild()
  }

  deinit {
    buffer.deallocate()
  }

  private func rebuild() {
    entries =
      [pollfd(fd: board.master, events: Int16(POLLIN), revents: 0)]
      + clients.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
  }

  /// Connects `count` more pages, one after the other, each once it has its first
  /// events (the layout, the state and the frames), so that the board's listening
  /// queue never overflows.
  func connect(_ count: Int) throws {
    for _ in 0..<count {
      let client = try EventStreamClient(setup)
      clients.append(client)
      rebuild()
      let deadline = MonotonicClock.now() + 10_000_000_000
      guard serve(until: deadline, { client.framesEvents > 0 || client.isClosed }),
        !client.isClosed
      else {
        throw BenchmarkError(
          description: "page \(clients.count) got no first events\n\(board.log)")
      }
    }
  }

  /// Closes every page's connection.
  func disconnectAll() {
    clients.removeAll()
    rebuild()
  }

  /// Bytes received by every page so far.
  var bytesReceived: Int { clients.reduce(0) { $0 + $1.bytesReceived } }

  /// Every page has the `value home N` line awaited.
  var allHaveHome: Bool { clients.allSatisfy { $0.homeArrival != nil } }

  /// When the first byte came out of the display's master side since it was last
  /// cleared: the return of the poll that found it.
  var displayByteAt: Int64?

  /// Reads the display and every page as their bytes come until `done()` holds (true)
  /// or `deadline` (false).
  func serve(until deadline: Int64, _ done: () -> Bool = { false }) -> Bool {
    while !done() {
      let now = MonotonicClock.now()
      guard now < deadline else { return false }
      for index in entries.indices {
        entries[index].revents = 0
      }
      let timeout = CInt(min((deadline - now + 999_999) / 1_000_000, 1000))
      guard poll(&entries, nfds_t(entries.count), timeout) > 0 else { continue }
      let returned = MonotonicClock.now()
      if entries[0].revents != 0 {
        if displayByteAt == nil {
          displayByteAt = returned
        }
        board.drain()
      }
      for (index, client) in clients.enumerated() where entries[index + 1].revents != 0 {
        client.receive(using: buffer)
        if client.isClosed {
          // A page the board closed: no more poll on it.
          entries[index + 1].fd = -1
        }
      }
    }
    return true
  }
}

/// One phase of the pages run: keys with a number of pages connected.
struct WebPagesPhase {
  var pages: Int
  /// Nanoseconds from the write of each key press to the first byte on the display.
  var keyToWire: [Int64] = []
  /// Nanoseconds from the write of each key press to the read that brought its watch line
  /// to the median page and to the last page (empty without pages).
  var medianPage: [Int64] = []
  var lastPage: [Int64] = []
  /// The board's CPU time over the keys, every thread (`/proc/PID/task/*/schedstat`).
  var cpu: Int64 = 0
  /// The loop thread's wakeups over the keys (voluntary context switches).
  var wakeups = 0
  /// Bytes every page received per change.
  var bytesPerPage = 0.0
  /// The board's memory at the end, the pages still connected.
  var memory = MemoryFigures()
}

/// Commands from a paired phone and from the control socket, in turns.
struct WebCommandResult {
  /// Nanoseconds from the write of each request to the first byte on the display, and
  /// to its answer (`ok home N`).
  var webToWire: [Int64] = []
  var webAnswer: [Int64] = []
  var controlToWire: [Int64] = []
  var controlAnswer: [Int64] = []
}

/// The web scenario's figures.
struct WebRunResult {
  var phases: [WebPagesPhase] = []
  var keys = 0
  var rounds = 0
  var commands = WebCommandResult()
  /// How long a writer that keeps its CPU for `spin` ns after writing to a
  /// pseudo-terminal takes to reach the master side (ns, per trigger).
  var pseudoTerminal: [(spin: Int64, samples: [Int64])] = []
  /// Why the scenario was not run, when it was not.
  var skipped: String?
}

extension Scenarios {
  /// A board with `[web]` (and an evdev FIFO keypad and an S7S display at 1,000,000
  /// baud, as the key-to-wire runs), given `keys` keys with each number of pages of
  /// `pageCounts` connected, in `rounds` rounds whose order rotates: home +1 and -1 in
  /// turn, a key every 2 ms once the previous one has reached the display and every
  /// page; the release written as soon as the first byte is on the display.
  func webPages(
    setup: WebSetup, keys: Int, rounds: Int, pageCounts: [Int], warmUp: Int = 20
  ) throws -> [WebPagesPhase] {
    let board = try Instance(.scoreboardd, programs: programs, baud: 1_000_000, web: setup)
    try board.waitUntilReady()
    let pool = EventStreamPool(board: board, setup: setup)
    let descriptorsAlone = openDescriptors(of: board.pid)
    var phases: [WebPagesPhase] = []
    for round in 0..<rounds {
      for turn in pageCounts.indices {
        let pages = pageCounts[(turn + round) % pageCounts.count]
        try pool.connect(pages)
        var warming = WebPagesPhase(pages: pages)
        try pressKeys(warmUp, pool: pool, into: &warming)
        // The pages of the previous phase are gone from the board: it closes a page's
        // connection at the first event after the page left (a page waiting for events
        // is not watched meanwhile), which the warm-up keys gave.
        guard
          waitUntil(timeout: 10, { openDescriptors(of: board.pid) == descriptorsAlone + pages })
        else {
          throw BenchmarkError(
            description: "the board holds \(openDescriptors(of: board.pid)) descriptors with "
              + "\(pages) pages, \(descriptorsAlone) alone")
        }
        var phase = WebPagesPhase(pages: pages)
        let before = board.counters
        let bytesBefore = pool.bytesReceived
        try pressKeys(keys, pool: pool, into: &phase)
        let after = board.counters
        phase.cpu = after.allThreadsCPUNanoseconds - before.allThreadsCPUNanoseconds
        phase.wakeups = after.wakeups - before.wakeups
        if pages > 0 {
          phase.bytesPerPage =
            Double(pool.bytesReceived - bytesBefore) / Double(pages) / Double(keys)
        }
        phase.memory = MemoryFigures(pid: board.pid)
        pool.disconnectAll()
        phases.append(phase)
      }
    }
    try board.waitUntilSettled()
    board.stop()
    return phases
  }

  /// `count` keys on `pool`'s board, a key every 2 ms once the previous one has reached
  /// the display and every page; their samples into `phase`.
  private func pressKeys(_ count: Int, pool: EventStreamPool, into phase: inout WebPagesPhase)
    throws
  {
    let board = pool.board
    var next = MonotonicClock.now()
    for number in 0..<count {
      _ = pool.serve(until: next)
      board.drain()
      let key: Key = board.home == 0 ? .homeUp : .homeDown
      let records = board.expect(key)
      for client in pool.clients {
        client.awaitHome()
      }
      pool.displayByteAt = nil
      let start = MonotonicClock.now()
      guard board.writeSome(records, from: 0) == records.count else {
        throw BenchmarkError(description: "the keypad FIFO is full")
      }
      let deadline = start + 5_000_000_000
      guard pool.serve(until: deadline, { pool.displayByteAt != nil }),
        let wire = pool.displayByteAt
      else {
        throw BenchmarkError(description: "no answer on the display to key \(number)\n\(board.log)")
      }
      board.release(key)
      guard pool.serve(until: deadline, { pool.allHaveHome }) else {
        let missing = pool.clients.filter { $0.homeArrival == nil }.count
        let closed = pool.clients.filter(\.isClosed).count
        throw BenchmarkError(
          description: "\(missing) of \(pool.clients.count) pages (\(closed) closed) got no "
            + "`value home` line 5 s after key \(number)\n\(board.log)")
      }
      let arrivals = pool.clients.map { client -> Int64 in
        client.homeArrival!.at - start
      }.sorted()
      if let wrong = pool.clients.first(where: { $0.homeArrival!.value != board.home }) {
        throw BenchmarkError(
          description: "a page was told home \(wrong.homeArrival!.value), not \(board.home)")
      }
      phase.keyToWire.append(wire - start)
      if !arrivals.isEmpty {
        phase.medianPage.append(percentile(arrivals, 0.5))
        phase.lastPage.append(arrivals.last!)
      }
      next = max(next + Self.keyInterval, MonotonicClock.now())
    }
  }

  /// A board with `[web]` and its control socket; a phone paired as a person pairs one
  /// (`pair` on the control socket, the code in `POST /api/pair`), then `count` commands
  /// from the phone (`POST /api/command`, `add home +1` or `-1`, on its keep-alive
  /// connection with its cookie) and as many lines on the control socket, in turns, after
  /// `warmUp` of each: from the write of the request to the first byte on the display,
  /// and to the answer. A command every 2 ms once the previous one is answered and shown.
  func webCommands(setup: WebSetup, count: Int, warmUp: Int = 20) throws -> WebCommandResult {
    let board = try Instance(.scoreboardd, programs: programs, baud: 1_000_000, web: setup)
    try board.waitUntilReady()
    let control = RequestConnection(
      descriptor: try connectUnix(path: board.controlPath), kind: .controlLine)
    let phone = RequestConnection(descriptor: try connectLoopback(port: setup.port), kind: .http)
    try control.send(Array("pair\n".utf8))
    guard let armed = control.answer(deadline: MonotonicClock.now() + 5_000_000_000),
      armed.body.hasPrefix("ok "), let code = armed.body.split(separator: " ").dropFirst().first
    else {
      throw BenchmarkError(description: "pair was not answered with a code\n\(board.log)")
    }
    try phone.send(
      RequestConnection.post(
        "/api/pair", body: "code=\(code)&name=bench", setup: setup, cookie: nil,
        contentType: "application/x-www-form-urlencoded"))
    guard let paired = phone.answer(deadline: MonotonicClock.now() + 5_000_000_000),
      paired.status == 200, let setCookie = paired.header("Set-Cookie"),
      let cookie = setCookie.split(separator: ";").first.map(String.init),
      cookie.hasPrefix("scoreboardd_device=")
    else {
      throw BenchmarkError(description: "the phone could not pair\n\(board.log)")
    }
    // The code is off the display once the phone is paired.
    try board.waitUntilSettled()

    var result = WebCommandResult()
    var entries = [
      pollfd(fd: board.master, events: Int16(POLLIN), revents: 0),
      pollfd(fd: -1, events: Int16(POLLIN), revents: 0),
    ]
    var next = MonotonicClock.now()
    for number in 0..<(2 * (warmUp + count)) {
      let fromPhone = number % 2 == 0
      let up = (number / 2) % 2 == 0
      let connection = fromPhone ? phone : control
      let line = up ? "add home +1" : "add home -1"
      let request =
        fromPhone
        ? RequestConnection.post(
          "/api/command", body: line, setup: setup, cookie: cookie,
          contentType: "text/plain;charset=UTF-8")
        : Array((line + "\n").utf8)
      MonotonicClock.sleep(until: next)
      board.drain()
      board.expect(up ? .homeUp : .homeDown)
      let start = MonotonicClock.now()
      try connection.send(request)
      entries[1].fd = connection.descriptor
      var wire: Int64?
      var answered: (RequestConnection.Answer, Int64)?
      let deadline = start + 5_000_000_000
      while wire == nil || answered == nil {
        let now = MonotonicClock.now()
        guard now < deadline, !connection.isClosed else {
          throw BenchmarkError(
            description: "command \(number) (\(fromPhone ? "phone" : "control socket")): "
              + "\(wire == nil ? "nothing on the display" : "no answer")\n\(board.log)")
        }
        entries[0].revents = 0
        entries[1].revents = 0
        guard poll(&entries, 2, CInt(min((deadline - now) / 1_000_000 + 1, 1000))) > 0 else {
          continue
        }
        let returned = MonotonicClock.now()
        if entries[0].revents != 0 {
          wire = wire ?? returned
          board.drain()
        }
        if entries[1].revents != 0 {
          connection.receive()
          if let answer = connection.takeAnswer() {
            answered = (answer, returned)
          }
        }
      }
      guard let (answer, answeredAt) = answered, let wire,
        answer.body.hasPrefix("ok home \(board.home)"), !fromPhone || answer.status == 200
      else {
        throw BenchmarkError(
          description: "command \(number) was answered \(answered.map { "\($0.0)" } ?? "")")
      }
      if number >= 2 * warmUp {
        if fromPhone {
          result.webToWire.append(wire - start)
          result.webAnswer.append(answeredAt - start)
        } else {
          result.controlToWire.append(wire - start)
          result.controlAnswer.append(answeredAt - start)
        }
      }
      next = max(next + Self.keyInterval, MonotonicClock.now())
    }
    try board.waitUntilSettled()
    board.stop()
    return result
  }
}

/// The web section of the results.
func webReport(_ result: WebRunResult) -> String {
  var text = "## Web\n\n"
  if let reason = result.skipped {
    return text + "Skipped: \(reason).\n"
  }
  let pageCounts = Array(Set(result.phases.map(\.pages))).sorted()
  let most = pageCounts.last ?? 0
  /// Every phase with `pages` pages, its samples pooled.
  func pooled(_ pages: Int, _ samples: (WebPagesPhase) -> [Int64]) -> [Int64] {
    result.phases.filter { $0.pages == pages }.flatMap(samples).sorted()
  }
  func perRound(_ pages: Int, _ figure: (WebPagesPhase) -> Double) -> Spread {
    Spread(values: result.phases.filter { $0.pages == pages }.map(figure))
  }
  func milliseconds(_ nanoseconds: Int64) -> String {
    format(Double(nanoseconds) / 1e6, 2)
  }
  text +=
    "A release scoreboardd with `[web]` on a loopback port (`connections = 1000`, "
    + "`connections-per-address = 1000`), an evdev FIFO keypad and an S7S display at "
    + "1,000,000 baud, as in \"Key to wire\", `state-file = none`. The pages are raw socket "
    + "clients of the harness, not a browser: each sends `GET /api/events` over HTTP/1.1, "
    + "undoes the chunked body and parses the Server-Sent Events as they come; every socket "
    + "is read as soon as `poll` finds it readable, the display's with them. "
    + "\(result.rounds) round\(result.rounds == 1 ? "" : "s") of \(result.keys) keys with "
    + "each number of pages connected, the order rotating from round to round; home +1 and "
    + "-1 in turn, a key every 2 ms once the previous one has reached the display and every "
    + "page, the release written as soon as the first byte is on the display "
    + "(Benchmarks/README.md).\n\n"

  let noPages = pooled(0, \.keyToWire)
  let manyPages = pooled(most, \.keyToWire)
  let wireRatio =
    Double(percentile(manyPages, 0.99)) / Double(max(percentile(noPages, 0.99), 1))
  let lastPages = pooled(most, \.lastPage)
  let phoneToWire = result.commands.webToWire.sorted()
  text += "| target | measured | met |\n| --- | --- | --- |\n"
  text +=
    "| a key to the last of \(most) pages, p99 under 50 ms on loopback "
    + "| \(milliseconds(percentile(lastPages, 0.99))) ms "
    + "| \(percentile(lastPages, 0.99) < 50_000_000 ? "yes" : "**no**") |\n"
  if !phoneToWire.isEmpty {
    text +=
      "| the phone's Done (POST /api/command) to the first byte on the display, p99 under "
      + "50 ms on loopback | \(milliseconds(percentile(phoneToWire, 0.99))) ms "
      + "| \(percentile(phoneToWire, 0.99) < 50_000_000 ? "yes" : "**no**") |\n"
  }
  text +=
    "| key-to-wire p99 with \(most) pages within 1.2x of the figure without pages (through "
    + "a pseudo-terminal: see below) "
    + "| \(microseconds(percentile(manyPages, 0.99))) µs vs "
    + "\(microseconds(percentile(noPages, 0.99))) µs: \(format(wireRatio, 2))x "
    + "| \(wireRatio <= 1.2 ? "yes" : "**no**") |\n\n"

  text +=
    "**A key to the pages**: µs from just before the `write` of a key press into the "
    + "keypad to the return of the `read` that brought a page the event `watch` with "
    + "`data: value home N` (the change as a `watch` client gets it; the `frames` and "
    + "`state` events of the same change come just before it, in the same chunk), for the "
    + "median page and the last of them; **key-to-wire** as in \"Key to wire\" (to the "
    + "return of the `poll` that finds the first byte on the display), with the pages "
    + "connected. Percentiles over every round's keys; the p99 of each round in brackets.\n\n"
  text +=
    "| pages | keys | key-to-wire p50 | key-to-wire p99 (each round) | median page p50 / p99 "
    + "| last page p50 / p99 (each round) | bytes per change per page |\n"
  text += "| --- | --- | --- | --- | --- | --- | --- |\n"
  for pages in pageCounts {
    let wire = pooled(pages, \.keyToWire)
    let rounds = { (samples: (WebPagesPhase) -> [Int64]) in
      result.phases.filter { $0.pages == pages }.map { phase in
        microseconds(percentile(samples(phase).sorted(), 0.99))
      }.joined(separator: ", ")
    }
    let median = pooled(pages, \.medianPage)
    let last = pooled(pages, \.lastPage)
    text +=
      "| \(pages) | \(wire.count) | \(microseconds(percentile(wire, 0.5))) "
      + "| \(microseconds(percentile(wire, 0.99))) (\(rounds(\.keyToWire))) "
    if pages == 0 {
      text += "| – | – | – |\n"
    } else {
      text +=
        "| \(microseconds(percentile(median, 0.5))) / \(microseconds(percentile(median, 0.99))) "
        + "| \(microseconds(percentile(last, 0.5))) / \(microseconds(percentile(last, 0.99))) "
        + "(\(rounds(\.lastPage))) | \(format(perRound(pages, \.bytesPerPage).median, 0)) |\n"
    }
  }
  text +=
    "\nWhat the pseudo-terminal adds to key-to-wire with pages: its bytes reach the master "
    + "side when a kernel worker runs, which mostly waits until the writer leaves the CPU it "
    + "wrote from (sometimes it runs elsewhere sooner). The board writes a change's "
    + "frame first and holds the pages' news 1 ms (`WebLink.pageDelay`), sleeping "
    + "meanwhile, so the pages' work (the documents, the events, libmicrohttpd writing to "
    + "every page) does not keep that worker from the CPU; a UART or a USB serial adapter "
    + "starts sending in the `write` itself (Benchmarks/README.md). The same run, a child "
    + "of the harness that "
    + "writes 2 bytes to a pseudo-terminal on a trigger and then keeps its CPU busy "
    + "(µs from the trigger's `write` to the return of the `poll` on the master side):\n\n"
  if !result.pseudoTerminal.isEmpty {
    text += "| the writer keeps its CPU after writing | triggers | p10 | p50 | p90 | p99 |\n"
    text += "| --- | --- | --- | --- | --- | --- |\n"
    for (spin, samples) in result.pseudoTerminal {
      let sorted = samples.sorted()
      text +=
        "| \(format(Double(spin) / 1000, 0)) µs | \(sorted.count) "
        + [0.1, 0.5, 0.9, 0.99].map { "| \(microseconds(percentile(sorted, $0))) " }.joined()
        + "|\n"
    }
  }
  text += "\n"

  text +=
    "**CPU per change per page**: the board's CPU time over each phase's \(result.keys) "
    + "keys (every thread, `/proc/PID/task/*/schedstat`; the release of each key included), "
    + "divided by the keys; the pages' share is the difference from the phase without pages, "
    + "divided by the pages. Median over the rounds (min–max), µs.\n\n"
  text += "| pages | CPU per change | more than without pages | per page | wakeups per change |\n"
  text += "| --- | --- | --- | --- | --- |\n"
  let cpu = { (pages: Int) in
    perRound(pages) { Double($0.cpu) / Double(max(result.keys, 1)) / 1000 }
  }
  let alone = cpu(0).median
  for pages in pageCounts {
    let figure = cpu(pages)
    let wakeups = perRound(pages) { Double($0.wakeups) / Double(max(result.keys, 1)) }.text(2)
    if pages == 0 {
      text += "| 0 | \(figure.text(1)) | – | – | \(wakeups) |\n"
    } else {
      text +=
        "| \(pages) | \(figure.text(1)) | \(format(figure.median - alone, 1)) "
        + "| \(format((figure.median - alone) / Double(pages), 2)) | \(wakeups) |\n"
    }
  }
  text += "\n"

  let fresh = result.phases.first { $0.pages == 0 }?.memory ?? MemoryFigures()
  let loaded = result.phases.filter { $0.pages == most }
  // A phase without pages that came after one with the most.
  let afterwards = result.phases.indices.dropFirst().last {
    result.phases[$0].pages == 0 && result.phases[$0 - 1].pages == most
  }.map { result.phases[$0].memory }
  text +=
    "**Memory with pages connected**: the board's `/proc/PID/smaps_rollup` (kB) at the end "
    + "of a phase, its pages still connected: `Rss`, `Pss` (shared pages divided among their "
    + "users) and `Private_Dirty` (pages written by the board alone: what it costs beyond "
    + "the shared code).\n\n"
  text += "| board | Rss | Pss | Private_Dirty |\n| --- | --- | --- | --- |\n"
  func memoryRow(_ name: String, _ memory: MemoryFigures) -> String {
    "| \(name) | \(memory.resident) | \(memory.proportional) | \(memory.privateDirty) |\n"
  }
  text += memoryRow("no page yet", fresh)
  for (index, phase) in loaded.enumerated() {
    text += memoryRow("\(most) pages connected (round \(index + 1))", phase.memory)
  }
  if let afterwards {
    text += memoryRow("no page, after \(most) pages left", afterwards)
  }
  if let last = loaded.last?.memory, most > 0 {
    text +=
      "| per page (\(most) pages less no page yet, ÷ \(most)) "
      + "| \(format(Double(last.resident - fresh.resident) / Double(most), 1)) "
      + "| \(format(Double(last.proportional - fresh.proportional) / Double(most), 1)) "
      + "| \(format(Double(last.privateDirty - fresh.privateDirty) / Double(most), 1)) |\n"
  }
  text += "\n"

  let commands = result.commands
  text +=
    "**A tap on the phone's Done to the wire**: a second board (`[web]` and its control "
    + "socket), a phone paired as a person pairs one (`pair` on the control socket, the "
    + "code in `POST /api/pair`); then `POST /api/command` with `add home +1` or `-1` on "
    + "the phone's keep-alive connection (TCP_NODELAY, its cookie, `Host` and `Origin` the "
    + "board's), and the same line on the control socket, in turns, a command every 2 ms "
    + "once the previous one is answered and shown. µs from just before the `write` of the "
    + "request to the return of the `poll` that finds the first byte on the display, and "
    + "to the one that brings the whole answer (`ok home N`).\n\n"
  text +=
    "| path | commands | to the wire p50 | p99 | max | answer p50 | p99 |\n"
  text += "| --- | --- | --- | --- | --- | --- | --- |\n"
  for (name, wire, answer) in [
    ("phone, POST /api/command", commands.webToWire, commands.webAnswer),
    ("control socket (the reference)", commands.controlToWire, commands.controlAnswer),
  ] where !wire.isEmpty {
    let wire = wire.sorted()
    let answer = answer.sorted()
    text +=
      "| \(name) | \(wire.count) | \(microseconds(percentile(wire, 0.5))) "
      + "| \(microseconds(percentile(wire, 0.99))) | \(microseconds(wire.last!)) "
      + "| \(microseconds(percentile(answer, 0.5))) | \(microseconds(percentile(answer, 0.99))) "
      + "|\n"
  }
  let web = commands.webToWire.sorted()
  let socket = commands.controlToWire.sorted()
  if !web.isEmpty, !socket.isEmpty {
    text +=
      "| phone / control socket | | "
      + "\(ratio(Double(percentile(web, 0.5)), Double(percentile(socket, 0.5)))) "
      + "| \(ratio(Double(percentile(web, 0.99)), Double(percentile(socket, 0.99)))) | | | |\n"
  }
  return text
}
