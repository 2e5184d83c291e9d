#if STAGE_TIMES
  @preconcurrency import Glibc

  /// Clock stamps along the path of a key, in a build made for measuring it (`swift build
  /// -Xswiftc -DSTAGE_TIMES`; `make bench` makes one): from the loop's wakeup through the
  /// read, the decoding, the model's step, the rendering and the write to the display, to
  /// the loop's next wait. The shipped build has none of it.
  ///
  /// One thread (the loop's) marks stages; a round that wrote to a display is a press's,
  /// one that read keys and wrote nothing a release's. At exit the medians and 90th
  /// percentiles of each stage go to the file `SCOREBOARDD_STAGE_TIMES` names.
  public enum StageTimes {
    /// A point on the path of a key, in the order a press passes them.
    public enum Stage: Int, CaseIterable, Sendable {
      /// The loop's wait (`epoll_pwait2`) returned.
      case woke
      /// The keypad's `read` is called.
      case readStarted
      /// The keypad's `read` returned.
      case readEnded
      /// The records are decoded into key events.
      case decoded
      /// The model's step is done (the key's action, its events, the next deadline).
      case stepped
      /// The display's frame is drawn.
      case rendered
      /// The display's `write` is called (the frame compared with the last one and
      /// encoded).
      case writeStarted
      /// The display's `write` returned.
      case writeEnded
      /// The loop waits again.
      case asleep

      /// The stage's name in the report.
      var name: String {
        switch self {
        case .woke: "woke"
        case .readStarted: "read-started"
        case .readEnded: "read-ended"
        case .decoded: "decoded"
        case .stepped: "stepped"
        case .rendered: "rendered"
        case .writeStarted: "write-started"
        case .writeEnded: "write-ended"
        case .asleep: "asleep"
        }
      }
    }

    /// The rounds kept: the first this many of each kind (a run's keys fit many times).
    static let capacity = 8192

    nonisolated(unsafe) private static var marks = [Int64](
      repeating: 0, count: Stage.allCases.count)
    nonisolated(unsafe) private static var presses: [[Int64]] = []
    nonisolated(unsafe) private static var releases: [Int64] = []

    /// Stamps `stage` of the current round; `woke` begins a round, `asleep` ends it.
    public static func mark(_ stage: Stage) {
      let now = MonotonicClock.now()
      if stage == .woke {
        for index in marks.indices { marks[index] = 0 }
      }
      // The first stamp of a stage in a round counts, but for the write's end: a frame
      // written in two parts ends with its last.
      if marks[stage.rawValue] == 0 || stage == .writeEnded {
        marks[stage.rawValue] = now
      }
      guard stage == .asleep, marks[Stage.woke.rawValue] != 0 else { return }
      if marks[Stage.writeEnded.rawValue] != 0, marks[Stage.readStarted.rawValue] != 0 {
        if presses.count < capacity { presses.append(marks) }
      } else if marks[Stage.readEnded.rawValue] != 0 {
        if releases.count < capacity { releases.append(now - marks[Stage.woke.rawValue]) }
      }
    }

    /// The report: a line per stage of a press (the time from the stage before it),
    /// then the whole press and the whole release, each with its median and 90th
    /// percentile in nanoseconds; then a line per press kept, in order, with the instants
    /// (`CLOCK_MONOTONIC`, nanoseconds) the loop woke and the write ended, for a harness
    /// to place them between its own write of the key and its read of the answer.
    public static func report() -> String {
      var lines = [
        "# stage median-ns p90-ns (\(presses.count) presses, \(releases.count) releases)"
      ]
      func line(_ name: String, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        let median = sorted[sorted.count / 2]
        let high = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        lines.append("\(name) \(median) \(high)")
      }
      let stages = Stage.allCases
      for stage in stages.dropFirst() {
        let before = stages[stage.rawValue - 1]
        let spans = presses.compactMap { marks -> Int64? in
          let from = marks[before.rawValue]
          let to = marks[stage.rawValue]
          return from != 0 && to != 0 ? to - from : nil
        }
        line(stage.name, spans)
      }
      line(
        "press", presses.map { $0[Stage.asleep.rawValue] - $0[Stage.woke.rawValue] })
      line(
        "press-to-write-ended",
        presses.map { $0[Stage.writeEnded.rawValue] - $0[Stage.woke.rawValue] })
      line("release", releases)
      for marks in presses {
        lines.append(
          "at \(marks[Stage.woke.rawValue]) \(marks[Stage.writeEnded.rawValue])")
      }
      return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the report to the file `SCOREBOARDD_STAGE_TIMES` names, if it names one.
    public static func writeReport() {
      guard let path = getenv("SCOREBOARDD_STAGE_TIMES") else { return }
      let text = Array(report().utf8)
      let descriptor = SystemCall.open(
        String(cString: path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return }
      _ = text.withUnsafeBytes { SystemCall.write(descriptor, $0.baseAddress, $0.count) }
      _ = SystemCall.close(descriptor)
    }
  }
#endif
