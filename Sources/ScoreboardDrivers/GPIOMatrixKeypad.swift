import LinuxIO
import ScoreboardCore
import ScoreboardSettings

/// A key matrix without diodes (the common 3x4 and 4x4 membrane keypads) on GPIO lines:
/// a key connects its row to its column.
///
/// Rows are open-drain outputs, active low; columns are inputs with pull-ups, active
/// low, reporting edges. Idle, every row is driven low and the keypad waits for a
/// column's edge: an idle keypad makes no wakeups. An edge starts scanning: each row
/// is driven low in turn with the others released high, and the columns are read; a
/// `MatrixScanner` debounces the scans and asks for the next one every 10 ms while a
/// key is down. Once everything is up, every row is driven low again and the keypad
/// waits for the next edge. Events carry the times of the scans (the times the loop
/// passes in), not the edges' timestamps: an edge only says that some key moved. See
/// `MatrixScanner` for the debounce rule and for what three keys on a rectangle
/// (ghosting) do.
///
/// The matrix is scanned once when the lines are requested: a key held then is taken
/// as down, so it reports no press, only its release.
public final class GPIOMatrixKeypad: Keypad {
  /// The keypad's name in the configuration, carried by its events.
  public let name: String
  /// The key at each crossing, row-major.
  public let keys: [Key]
  /// The line request, owned by the keypad: the rows, then the columns.
  private let lines: any GPIOLines
  private let rowCount: Int
  private var scanner: MatrixScanner
  private let logger: Logger
  private var isClosed = false

  /// Requests the rows and columns and scans the matrix once.
  ///
  /// - Parameters:
  ///   - name: The keypad's name, carried by its events and part of the lines' consumer.
  ///   - rows: The row lines, top to bottom.
  ///   - columns: The column lines, left to right.
  ///   - keys: The key at each crossing, row by row (`rows.count * columns.count`).
  ///   - debounce: How long a key's new state must be seen before it counts.
  ///   - backend: Where the lines are requested.
  ///   - logger: Where a scan that fails while serviced is reported.
  /// - Throws: `GPIOError` naming the line when the request fails (a line that does not
  ///   exist, or is busy) or the first scan fails.
  public init(
    name: String, rows: [GPIOLine], columns: [GPIOLine], keys: [Key],
    debounce: Duration = .milliseconds(20), backend: any GPIOBackend, logger: Logger
  ) throws {
    precondition(!rows.isEmpty && !columns.isEmpty, "a key matrix needs rows and columns")
    precondition(keys.count == rows.count * columns.count, "one key per crossing")
    self.name = name
    self.keys = keys
    self.logger = logger
    rowCount = rows.count
    let row = GPIOLineSettings.output(initialValue: true, drive: .openDrain, activeLow: true)
    let column = GPIOLineSettings.input(bias: .pullUp, activeLow: true, edges: .both)
    lines = try backend.request(
      rows.map { ($0, row) } + columns.map { ($0, column) }, consumer: "scoreboardd \(name)")
    scanner = MatrixScanner(rows: rows.count, columns: columns.count, debounce: debounce)
    do {
      scanner.start(closed: try scan())
    } catch {
      lines.release()
      throw error
    }
    for (key, isDown) in zip(keys, scanner.isDown) where isDown {
      logger.debug("keypad \(name): \(key) is held at start; its press is not reported")
    }
  }

  deinit {
    close()
  }

  /// The columns' edges; while a key is down, the next scan.
  public var waitingFor: DeviceWait {
    DeviceWait(descriptor: lines.eventDescriptor, events: .readable, deadline: scanner.nextDeadline)
  }

  /// Reads the columns' edges. On an idle keypad they start scanning (a first scan at
  /// `time`); while scanning they come from the scans themselves and are dropped.
  ///
  /// - Throws: `GPIOError` when the edges cannot be read or the scan fails.
  public func readEvents(at time: Instant) throws -> [KeyEvent] {
    precondition(!isClosed, "readEvents(at:) after close()")
    let edges = try lines.readEvents()
    guard scanner.isIdle, !edges.isEmpty else { return [] }
    return try scanAndDebounce(at: time)
  }

  /// Scans the matrix. A failing scan is logged and ends scanning; the next edge
  /// starts it again, and `readEvents(at:)` reports a failure then.
  public func service(at now: Instant) -> [KeyEvent] {
    precondition(!isClosed, "service(at:) after close()")
    do {
      return try scanAndDebounce(at: now)
    } catch {
      logger.warning("keypad \(name): scan failed: \(error)")
      scanner.start(closed: Array(repeating: false, count: keys.count))
      try? idle()
      return []
    }
  }

  /// Releases the lines; calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    lines.release()
  }

  private func scanAndDebounce(at time: Instant) throws -> [KeyEvent] {
    scanner.scanned(closed: try scan(), at: time).map {
      KeyEvent(keypad: name, key: keys[$0.key], kind: $0.isDown ? .press : .release, time: $0.time)
    }
  }

  /// Drives each row in turn and reads the columns, then drives every row again (the
  /// idle state, also kept between scans).
  ///
  /// - Returns: Whether each key's column read active while its row was driven,
  ///   row-major.
  private func scan() throws -> [Bool] {
    var closed: [Bool] = []
    for row in 0..<rowCount {
      try lines.set(row, false)
    }
    for row in 0..<rowCount {
      try lines.set(row, true)
      for column in rowCount..<lines.count {
        closed.append(try lines.get(column))
      }
      try lines.set(row, false)
    }
    try idle()
    return closed
  }

  /// Drives every row, so that a key pressed on any row makes its column's edge.
  private func idle() throws {
    for row in 0..<rowCount {
      try lines.set(row, true)
    }
  }
}
