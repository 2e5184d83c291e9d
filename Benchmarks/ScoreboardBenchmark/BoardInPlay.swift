@preconcurrency import Glibc
import LinuxIO

/// What a board in play costs: its CPU time and its wakeups per second while the game
/// clock runs in tenths with a shot clock, alone, with `[mqtt]`, and with pages on the
/// event stream.
struct BoardInPlayRun {
  var variant: String
  /// Milliseconds of CPU per second, every thread.
  var cpuPerSecond: Double
  /// Voluntary context switches per second, every thread.
  var wakeupsPerSecond: Double
  /// Changes of the clock's module per second, as the harness saw them.
  var changesPerSecond: Double
}

extension Scenarios {
  /// One board of the game clock in tenths (59.9 on the S7S module at 9600 baud) and a
  /// 24 s shot clock on a second display, its clocks started, measured for `seconds`:
  /// alone, with `[mqtt]` on `broker` (if any), and with `pages` pages on the event
  /// stream of its `[web]` (if `webPages`, the folder of the pages, is given).
  func boardInPlay(
    seconds: Double, broker: LoopbackBroker?, webPages: String?, pages: Int = 3
  ) throws -> [BoardInPlayRun] {
    var runs: [BoardInPlayRun] = []
    var variants: [(String, MQTTSetup?, WebSetup?)] = [("alone", nil, nil)]
    if let broker {
      variants.append(("with [mqtt]", MQTTSetup(broker: broker.url, topic: "bench/board"), nil))
    }
    if let webPages {
      variants.append(
        (
          "with \(pages) pages on the event stream", nil,
          WebSetup(port: try LoopbackBroker.freePort(), pages: webPages)
        ))
    }
    for (variant, mqtt, web) in variants {
      let clock = ClockSetup(length: "59.9", tenthsBelow: "always", shotClock: true)
      let board = try Instance(
        .scoreboardd, programs: programs, baud: 9600, clock: clock, mqtt: mqtt, web: web)
      let pool = web.map { EventStreamPool(board: board, setup: $0) }
      let readyBy = MonotonicClock.now() + 10_000_000_000
      while access(board.controlPath, F_OK) != 0 {
        guard MonotonicClock.now() < readyBy else {
          throw BenchmarkError(description: "no control socket\n\(board.log)")
        }
        usleep(10_000)
        board.drain()
      }
      if let web {
        // Listening once a connection is taken (the control socket may come first).
        while true {
          if let probe = try? connectLoopback(port: web.port) {
            close(probe)
            break
          }
          guard MonotonicClock.now() < readyBy else {
            throw BenchmarkError(description: "no web server\n\(board.log)")
          }
          usleep(10_000)
          board.drain()
        }
      }
      try pool?.connect(pages)
      let watch = ClockWatch(board, clock: clock)
      try watch.start()
      func serve(until end: Int64, recording: Bool) {
        while MonotonicClock.now() < end {
          let slice = min(end, MonotonicClock.now() + 5_000_000)
          if let pool {
            let before = board.bytesReceived
            _ = pool.serve(until: slice)
            if board.bytesReceived > before {
              watch.noteBytes(at: MonotonicClock.now())
            }
          } else {
            var entry = pollfd(fd: board.master, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, CInt(max((slice - MonotonicClock.now()) / 1_000_000, 1))) > 0 {
              watch.read(at: MonotonicClock.now())
            }
          }
          watch.settle(at: MonotonicClock.now(), recording: recording)
        }
      }
      serve(until: MonotonicClock.now() + 300_000_000, recording: false)
      let before = board.counters
      let begin = MonotonicClock.now()
      let changesBefore = watch.changeCount
      serve(until: begin + Int64(seconds * 1e9), recording: true)
      let after = board.counters
      let elapsed = Double(MonotonicClock.now() - begin) / 1e9
      runs.append(
        BoardInPlayRun(
          variant: variant,
          cpuPerSecond: Double(after.allThreadsCPUNanoseconds - before.allThreadsCPUNanoseconds)
            / 1e6 / elapsed,
          wakeupsPerSecond: Double(after.allThreadsWakeups - before.allThreadsWakeups) / elapsed,
          changesPerSecond: Double(watch.changeCount - changesBefore) / elapsed))
      pool?.disconnectAll()
      board.stop()
    }
    return runs
  }
}

/// The board-in-play table: each variant's CPU and wakeups per second, and its ratios to
/// the board alone.
func boardInPlayTable(_ runs: [[BoardInPlayRun]]) -> String {
  guard let first = runs.first else { return "" }
  var text = "| board | CPU, ms/s | wakeups/s (voluntary switches, every thread) "
  text += "| clock changes/s | CPU / alone | wakeups / alone |\n"
  text += "| --- | --- | --- | --- | --- | --- |\n"
  let alone = Spread(values: runs.map { $0[0].cpuPerSecond })
  let aloneWakeups = Spread(values: runs.map { $0[0].wakeupsPerSecond })
  for index in first.indices {
    let cpu = Spread(values: runs.map { $0[index].cpuPerSecond })
    let wakeups = Spread(values: runs.map { $0[index].wakeupsPerSecond })
    let changes = Spread(values: runs.map { $0[index].changesPerSecond })
    text += "| \(first[index].variant) | \(cpu.text(3)) | \(wakeups.text(2)) | "
    text += "\(changes.text(2)) | \(ratio(cpu.median, alone.median)) | "
    text += "\(ratio(wakeups.median, aloneWakeups.median)) |\n"
  }
  return text
}
