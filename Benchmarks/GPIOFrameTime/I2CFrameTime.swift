import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import ScoreboardSettings
import TestSupport

/// Frame times of the HT16K33 driver: the daemon's driver on an in-memory bus (the CPU
/// of encoding and of the transfer calls) and the time the transfers take on the wire,
/// computed from their bytes at the Raspberry Pi's default 100 kHz and at 400 kHz.
enum I2CFrameTime {
  struct Case {
    var name: String
    var backpack: HT16K33Backpack
    /// How many cells change from one frame to the next.
    var changedCells: Int
  }

  static let cases = [
    Case(name: "ht16k33 7-segment, every digit", backpack: .sevenSegment, changedCells: 4),
    Case(name: "ht16k33 7-segment, last digit", backpack: .sevenSegment, changedCells: 1),
    Case(name: "ht16k33 alphanumeric, every digit", backpack: .alphanumeric, changedCells: 4),
    Case(name: "ht16k33 alphanumeric, last digit", backpack: .alphanumeric, changedCells: 1),
  ]

  /// The bits a transfer takes on the wire: START, the address byte, the command byte and
  /// the data, 9 bits each with the acknowledgement, and STOP.
  static func wireBits(_ transfer: FakeI2CBackend.Transfer) -> Int {
    switch transfer {
    case .command: 1 + 2 * 9 + 1
    case .block(_, let data): 1 + (2 + data.count) * 9 + 1
    }
  }

  static func report(repetitions: Int) {
    print("")
    print(
      "HT16K33 frame times (one backpack; median of \(repetitions) frames; wire time computed "
        + "from the bytes sent)")
    print("")
    print(
      "| driver | transfers | bytes | driver CPU (µs) | wire at 100 kHz (µs) "
        + "| wire at 400 kHz (µs) |")
    print("|---|---|---|---|---|---|")
    let logger = Logger(output: .standardError, programName: "bench", minimumLevel: .error)
    for benchmark in cases {
      let bus = FakeI2CBackend(answering: [0x70])
      let display = HT16K33Display(
        name: "bench", bus: "/dev/i2c-1", address: 0x70, backpack: benchmark.backpack,
        backend: bus, logger: logger)
      display.show(frame(changedCells: benchmark.changedCells, seed: 0), at: .zero)
      _ = bus.takeTransfers(to: 0x70)
      var times: [Int64] = []
      var transfers: [FakeI2CBackend.Transfer] = []
      for repetition in 1...repetitions {
        let next = frame(changedCells: benchmark.changedCells, seed: repetition)
        let start = MonotonicClock.now()
        display.show(next, at: .zero)
        times.append(MonotonicClock.now() - start)
        transfers = bus.takeTransfers(to: 0x70)
      }
      let bits = transfers.map(wireBits).reduce(0, +)
      let bytes = transfers.map { transfer in
        if case .block(_, let data) = transfer { 2 + data.count } else { 2 }
      }.reduce(0, +)
      print(
        "| \(benchmark.name) | \(transfers.count) | \(bytes) | \(microseconds(median(times))) "
          + "| \(microseconds(Int64(bits) * 10_000)) | \(microseconds(Int64(bits) * 2_500)) |")
    }
  }

  /// Four cells, the last `changedCells` of them different for each `seed`.
  static func frame(changedCells: Int, seed: Int) -> Frame {
    let cells = (0..<4).map { cell in
      let digit = cell < 4 - changedCells ? cell : (seed + cell) % 10
      return SegmentFont.digit(digit)
    }
    return Frame(cells: cells, brightness: 8)
  }
}
