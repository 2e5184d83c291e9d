import LinuxIO
import ScoreboardCore
import ScoreboardDrivers

/// The state file, where the committed scores survive restarts and power cuts, and how
/// its writes fare.
///
/// A save is durable once the file was written and flushed: in place, in the slot not
/// holding the newest state, or as a new file renamed over the old one (`TwoSlotFile`).
/// The daemon's store writes on a thread of its own
/// (`BackgroundFileWriter`), so that the loop never waits for the disk: `save` starts a
/// write and returns its ticket, and `takeCompletions` later says which tickets are
/// durable; a state saved while a write runs waits for it, and only the newest such
/// state is written. A write nobody waits for (keys, with the file healthy) does not
/// wake the loop when it ends: the store takes its result when it next needs the
/// writer, and asks to be woken only when something waits for it. Without the thread
/// (tests, or when it cannot be made) `save` writes at once. When writing fails (a full
/// or read-only SD card, an I/O error), the scoreboard goes on from memory: the store
/// says so once in the journal, keeps the latest state, tries again with a growing
/// delay (and on every new change), and says so again when a write succeeds, which
/// makes every value durable at once.
final class StateStore {
  /// How a save stands.
  enum Progress: Equatable {
    /// Nothing is left to write for it: the file holds the state (or there is no file),
    /// or, with a reason, writing it failed.
    case done(unsavedReason: String?)
    /// It is being written; `takeCompletions` reports `ticket`, and a completion of a
    /// later ticket covers it too.
    case writing(ticket: UInt64)
  }

  /// A write that ended: every save up to `ticket` is durable, or with a reason, is not.
  struct Completion: Equatable {
    var ticket: UInt64
    var unsavedReason: String?
  }

  /// How the state file fares.
  enum Health: Equatable {
    /// No state file is configured: the scores live in memory by choice.
    case off
    /// Everything committed is in the file.
    case saved
    /// Writing fails since `since` (seconds since the epoch); `reason` says why.
    case failing(since: Int64, reason: String)
  }

  /// State files larger than this are not read: they are set aside.
  static let sizeLimit = 64 * 1024
  /// The first wait before writing again after a failure; doubled after each failure.
  static let firstRetryDelay = Duration.seconds(1)
  /// The longest wait between two attempts.
  static let longestRetryDelay = Duration.seconds(30)
  /// A change that nobody waits to hear is saved (a key, a clock running out) is
  /// written at most once in this interval, after the last write began: a burst of keys
  /// costs the SD card and the CPU 20 writes a second, not one a key, and the writing of
  /// its latest state begins this long after its last key at most. A change with an
  /// answer waiting (a control request, an MQTT command) is written at once.
  static let unansweredInterval = Duration.milliseconds(50)

  /// The state file; nil when none is configured.
  private let file: TwoSlotFile?
  /// The state file's path; nil when none is configured.
  var path: String? { file?.path }
  private let logger: Logger
  private let clock: any TimeSource
  private(set) var health: Health
  /// The state not yet durable, written at the next attempt, and its ticket.
  private var pending: (state: SavedState, ticket: UInt64)?
  /// The state the background writer is writing, and its ticket.
  private var inFlight: (state: SavedState, ticket: UInt64)?
  /// The write under way wakes the loop when it ends (`completions`): something waits
  /// for it. Otherwise its result is taken when the store next needs the writer.
  private var inFlightWakes = false
  /// Writes whose results the store took by itself, not through `takeCompletions`:
  /// their completions, for `takeFinished`.
  private var finished: [Completion] = []
  /// What the file holds, as far as the store knows.
  private var written: SavedState?
  /// When to try writing `pending` again.
  private(set) var retryAt: Instant?
  /// `unansweredInterval` after the last background write began: until then, a change
  /// nobody waits for is held.
  private var holdEndsAt: Instant?
  /// `pending` holds only changes nobody waits for: it may wait for
  /// `unansweredInterval`.
  private var pendingMayWait = false
  /// Someone waits to hear that `pending` is durable: its write wakes the loop.
  private var pendingIsAnswered = false
  /// Changes came after `pending`'s state was taken, while it was held: its write
  /// takes the state from `currentState` when it begins.
  private var pendingIsStale = false
  private var failedAttempts = 0
  private var lastTicket: UInt64 = 0
  /// The thread that writes; nil: writes are made at once, on the caller's thread.
  private var writer: BackgroundFileWriter?
  /// The state as it stands, set by the store's owner. With it, a change that joins one
  /// already held is not put into a `SavedState` at every key of a burst: the held
  /// write takes the state once, when it begins.
  var currentState: (() -> SavedState)?

  /// A store for the state file at `path` (nil for none); nothing is touched yet. With
  /// `inBackground`, writes are made on a thread of their own; `clock` dates failures.
  init(
    path: String?, logger: Logger, inBackground: Bool = false,
    clock: any TimeSource = KernelTimeSource()
  ) {
    self.clock = clock
    file = path.map(TwoSlotFile.init(path:))
    self.logger = logger
    health = path == nil ? .off : .saved
    if inBackground, path != nil {
      do {
        writer = try BackgroundFileWriter()
      } catch {
        logger.warning("state file: \(error); the scores are saved on the main thread")
      }
    }
  }

  /// Readable when a background write has ended (`takeCompletions`); nil when writes
  /// are made at once.
  var completions: FileDescriptor? {
    writer?.completions
  }

  /// Checks that the state file's folder is this user's own, and removes temporary
  /// files a killed daemon left there.
  ///
  /// - Throws: `DaemonError` with exit code 78 when another user could plant files in
  ///   the folder or redirect it.
  func prepare() throws(DaemonError) {
    guard let path else { return }
    let folder = FileSystem.folder(containing: path)
    do {
      try PrivateFolder.check(folder)
    } catch {
      throw DaemonError(
        "state file \(path): \(error); scoreboardd does not write where another user could "
          + "plant or redirect files", exitCode: .configuration)
    }
    do {
      for name in try AtomicFile.removeTemporaryFiles(of: path) {
        logger.notice("removed \(name), left in \(folder) by a scoreboardd that was stopped")
      }
    } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
      // No folder yet: the first save says so.
    } catch {
      logger.warning("state file \(path): cannot look for temporary files: \(error)")
    }
  }

  /// Reads the saved state. A file that cannot be used (damaged, too large, or a FIFO, a
  /// folder or a link in its place) is set aside as `PATH.corrupt-TIME` and reported;
  /// then the scoreboard starts from its defaults.
  ///
  /// - Returns: The state, or nil when there is none to use.
  func load(at now: Instant) -> SavedState? {
    guard let path, let file else { return nil }
    let bytes: [UInt8]?
    do {
      bytes = try file.read(limit: Self.sizeLimit)
    } catch let error as TwoSlotFile.Damaged {
      setAside(path, because: "damaged (\(error.reason))", at: now)
      return nil
    } catch let error as NotARegularFile {
      setAside(path, because: "\(error)", at: now)
      return nil
    } catch let error as IOError where error.errno == .fileTooLarge {
      setAside(path, because: "larger than \(Self.sizeLimit / 1024) KiB", at: now)
      return nil
    } catch {
      logger.error("cannot read the saved scores: \(error); starting from the defaults")
      return nil
    }
    guard let bytes else {
      logger.info("no saved scores in \(path) yet; starting from the defaults")
      return nil
    }
    do {
      let state = try SavedState(parsing: String(decoding: bytes, as: UTF8.self))
      written = state
      logger.info("restored the scores from \(path)")
      return state
    } catch {
      setAside(path, because: "damaged (\(error))", at: now)
      return nil
    }
  }

  /// Saves `state` unless the file holds it already (or will, once the write under way
  /// ends).
  ///
  /// - Returns: `.done` when nothing is left to write (always without a state file),
  ///   with the reason when writing at once failed; `.writing` when a background write
  ///   will make it durable.
  ///
  /// - Parameter answered: Someone waits to hear the change is saved; false lets it wait
  ///   for `unansweredInterval` with the other changes of a burst.
  @discardableResult
  func save(
    _ state: @autoclosure () -> SavedState, at now: Instant, answered: Bool = true
  ) -> Progress {
    guard path != nil else { return .done(unsavedReason: nil) }
    if inFlight != nil, !inFlightWakes {
      takeEndedWrite(at: now, orWake: answered)
    }
    let progress = saveTaken(state(), at: now, answered: answered)
    wakeWhenPendingMayGo(at: now)
    return progress
  }

  private func saveTaken(
    _ state: @autoclosure () -> SavedState, at now: Instant, answered: Bool
  ) -> Progress {
    guard let path else { return .done(unsavedReason: nil) }
    if !answered, currentState != nil, mayWaitUntaken(at: now) {
      lastTicket += 1
      if pending != nil {
        pending?.ticket = lastTicket
      } else if let standIn = inFlight?.state ?? written {
        // `mayWaitUntaken` made sure there is one.
        pending = (standIn, lastTicket)
      }
      pendingMayWait = true
      pendingIsStale = true
      return .writing(ticket: lastTicket)
    }
    let state = state()
    if health == .saved, pending == nil {
      if let inFlight, inFlight.state == state {
        return .writing(ticket: inFlight.ticket)
      }
      if inFlight == nil, written == state {
        return .done(unsavedReason: nil)
      }
    }
    pendingMayWait = (pending == nil || pendingMayWait) && !answered
    pendingIsAnswered = (pending != nil && pendingIsAnswered) || answered
    lastTicket += 1
    pending = (state, lastTicket)
    pendingIsStale = false
    guard writer != nil else {
      let saved = write(state, to: path, at: now)
      return .done(unsavedReason: saved ? nil : unsavedReason ?? "the state file cannot be written")
    }
    if let heldUntil, now < heldUntil {
      return .writing(ticket: lastTicket)
    }
    startPending(at: now)
    return writer == nil ? .done(unsavedReason: unsavedReason) : .writing(ticket: lastTicket)
  }

  /// Whether a change nobody waits for may be saved without being put into a
  /// `SavedState` now, because its write waits all the same (the writer is busy, or the
  /// hold after the last write began has not ended): the write takes the state from
  /// `currentState` when it begins. With nothing pending yet, what the file holds or is
  /// being given stands in until then.
  private func mayWaitUntaken(at now: Instant) -> Bool {
    let held = health == .saved && holdEndsAt.map { now < $0 } ?? false
    guard writer?.isBusy == true || held else { return false }
    if pending != nil { return pendingMayWait }
    return health == .saved && (inFlight != nil || written != nil)
  }

  /// Takes the state from `currentState` for a pending write that changes joined
  /// after its state was taken.
  private func refreshPending() {
    guard pendingIsStale, let currentState else { return }
    pending?.state = currentState()
    pendingIsStale = false
  }

  /// Until when `pending` waits, holding only changes nobody waits for, while the last
  /// write began less than `unansweredInterval` ago; nil when it may go now.
  private var heldUntil: Instant? {
    guard pending != nil, pendingMayWait, health == .saved else { return nil }
    return holdEndsAt
  }

  /// When the store next has something to do: a retry, or a held change to write (or,
  /// while a write that does not wake the loop may be under way, to see whether it
  /// has ended).
  var deadline: Instant? {
    guard let heldUntil, inFlight == nil || !inFlightWakes else { return retryAt }
    return retryAt.map { min($0, heldUntil) } ?? heldUntil
  }

  /// Writes the change held for `unansweredInterval` once it is due; if a write is
  /// under way still, it goes when that one ends.
  func writeHeldIfDue(at now: Instant) {
    guard let heldUntil, now >= heldUntil else { return }
    guard inFlight == nil else {
      if !inFlightWakes {
        takeEndedWrite(at: now, orWake: true)
      }
      return
    }
    pendingMayWait = false
    startPending(at: now)
  }

  /// Takes the result of the write under way if it has ended (it did not wake the
  /// loop: nobody waited for it); with `orWake`, one still running wakes the loop when
  /// it ends. The completion is kept for `takeFinished`.
  private func takeEndedWrite(at now: Instant, orWake: Bool) {
    guard let writer else { return }
    if let result = writer.takeResultIfEnded(orWake: orWake) {
      finished += complete(result, at: now)
    } else if orWake {
      inFlightWakes = true
    }
  }

  /// A state that waits for the write under way alone (no hold keeps it) goes as soon
  /// as that write ends: the write wakes the loop when it does.
  private func wakeWhenPendingMayGo(at now: Instant) {
    guard pending != nil, inFlight != nil, !inFlightWakes else { return }
    if let heldUntil, now < heldUntil { return }
    takeEndedWrite(at: now, orWake: true)
  }

  /// The completions of the writes whose results the store took by itself (when a save
  /// or a due write needed the writer), since the last call.
  func takeFinished() -> [Completion] {
    guard !finished.isEmpty else { return [] }
    defer { finished = [] }
    return finished
  }

  /// Writes the pending state again when its retry is due.
  func retryIfDue(at now: Instant) {
    guard let path, pending != nil, inFlight == nil, let retryAt, now >= retryAt else { return }
    refreshPending()
    if writer != nil {
      startPending(at: now)
    } else if let pending {
      _ = write(pending.state, to: path, at: now)
    }
  }

  /// The background writes that ended since the last call, and what they mean for the
  /// file's health; the next pending state starts being written.
  func takeCompletions(at now: Instant) -> [Completion] {
    guard let result = writer?.takeResult() else { return takeFinished() }
    return takeFinished() + complete(result, at: now)
  }

  /// Waits for the background write under way, writes what is pending at once, and
  /// makes every later save at once: for stopping, and for a store being replaced.
  func finish(at now: Instant) -> [Completion] {
    guard let writer else { return takeFinished() }
    var completions = takeFinished()
    // A completion may start the next pending state: wait for that one too.
    while let result = writer.waitForResult() {
      completions += complete(result, at: now)
    }
    writer.close()
    self.writer = nil
    refreshPending()
    if let path, let pending {
      let saved = write(pending.state, to: path, at: now)
      completions.append(
        Completion(ticket: pending.ticket, unsavedReason: saved ? nil : unsavedReason))
    }
    return completions
  }

  /// Hands the pending state to the writer, unless it is busy (the pending state then
  /// goes when it is done). A writer whose thread cannot be made is given up: the write
  /// is made at once, and so are all later ones.
  private func startPending(at now: Instant) {
    guard let writer, !writer.isBusy, let path, let file else { return }
    refreshPending()
    guard let next = pending else { return }
    // The loop is woken when the write ends if someone waits for it, or when the file
    // was failing (a retry, whose success is told at once).
    let waking = pendingIsAnswered || health != .saved
    do {
      try writer.start(
        next.state.encodedBytes(), to: file, ticket: next.ticket, waking: waking)
      inFlight = next
      inFlightWakes = waking
      pending = nil
      pendingMayWait = false
      pendingIsAnswered = false
      holdEndsAt = now + Self.unansweredInterval
    } catch {
      logger.warning("state file: \(error); the scores are saved on the main thread")
      writer.close()
      self.writer = nil
      _ = write(next.state, to: path, at: now)
    }
  }

  /// Takes the result of a background write.
  private func complete(_ result: BackgroundFileWriter.Result, at now: Instant) -> [Completion] {
    guard let path, let flight = inFlight, flight.ticket == result.ticket else { return [] }
    let flightWoke = inFlightWakes
    inFlight = nil
    inFlightWakes = false
    if let failure = result.failure {
      if pending == nil, replaceEntryThatIsNotAFile(at: path, now: now) {
        // Something else took the file's place and was set aside: write again at once.
        pending = flight
        pendingIsAnswered = flightWoke
        startPending(at: now)
        return []
      }
      failed(WriteFailure(reason: failure), path: path, at: now)
      let newer = pending != nil
      pending = pending ?? flight
      if newer {
        // A change came meanwhile: it is tried at once, as every change is.
        startPending(at: now)
      }
      return [Completion(ticket: flight.ticket, unsavedReason: unsavedReason)]
    }
    succeeded(flight.state, path: path)
    if heldUntil.map({ now >= $0 }) ?? true {
      startPending(at: now)
    }
    return [Completion(ticket: flight.ticket, unsavedReason: nil)]
  }

  /// Why the latest changes are not saved; nil when they are (or there is no file).
  var unsavedReason: String? {
    guard case .failing(let since, let reason) = health, let path else { return nil }
    return "cannot write \(path) since \(WallClock.timestamp(since)): \(reason); "
      + "kept in memory, retrying"
  }

  /// The state file as `status` reports it.
  var status: ControlStatus.StateFile {
    switch health {
    case .off: .none
    case .saved: .saved
    case .failing(let since, _): .failing(since: WallClock.timestamp(since))
    }
  }

  // MARK: - Writing

  private func write(_ state: SavedState, to path: String, at now: Instant) -> Bool {
    let bytes = state.encodedBytes()
    var result = attempt(bytes)
    if case .failure = result, replaceEntryThatIsNotAFile(at: path, now: now) {
      result = attempt(bytes)
    }
    switch result {
    case .success:
      succeeded(state, path: path)
      if pending?.state == state {
        pending = nil
      }
      return true
    case .failure(let failure):
      failed(failure, path: path, at: now)
      return false
    }
  }

  /// `state` is durable.
  private func succeeded(_ state: SavedState, path: String) {
    if case .failing(let since, _) = health {
      logger.notice(
        "the scores are saved in \(path) again, after \(wallClockSeconds() - since) s of failures")
    }
    health = .saved
    written = state
    retryAt = nil
    failedAttempts = 0
  }

  /// A write failed: the health says why, and the next attempt waits a growing delay.
  private func failed(_ failure: WriteFailure, path: String, at now: Instant) {
    let reason = failure.reason
    if case .failing(let since, let previous) = health {
      if previous != reason {
        logger.warning("the scores still cannot be saved in \(path): \(reason)")
      }
      health = .failing(since: since, reason: reason)
    } else {
      logger.error(
        "cannot save the scores in \(path): \(reason); the scoreboard goes on from memory "
          + "and tries again")
      health = .failing(since: wallClockSeconds(), reason: reason)
    }
    retryAt = now + retryDelay(after: failedAttempts)
    failedAttempts += 1
  }

  /// One write of the file; the reason in words when it fails.
  private func attempt(_ bytes: [UInt8]) -> Result<Void, WriteFailure> {
    do {
      try file?.write(bytes)
      return .success(())
    } catch let error as IOError {
      return .failure(WriteFailure(reason: "\(error.operation): \(error.errno)"))
    } catch {
      return .failure(WriteFailure(reason: "\(error)"))
    }
  }

  private struct WriteFailure: Error {
    var reason: String
  }

  /// Sets aside a folder, socket or other non-file that took the state file's place,
  /// so that the next write can put the file there.
  ///
  /// - Returns: Whether something was set aside.
  private func replaceEntryThatIsNotAFile(at path: String, now: Instant) -> Bool {
    guard let status = try? FileStatus.ofEntry(at: path), status.kind != .regular else {
      return false
    }
    return setAside(path, because: "\(path) is \(status.kind), not a regular file", at: now)
  }

  @discardableResult
  private func setAside(_ path: String, because reason: String, at now: Instant) -> Bool {
    written = nil
    do {
      let aside = try AtomicFile.setAside(path)
      logger.error("\(path): \(reason); set aside as \(aside); starting from the defaults")
      return true
    } catch {
      logger.error(
        "\(path): \(reason), and it cannot be set aside (\(error)); the scores are not saved "
          + "until it is removed")
      health = .failing(
        since: wallClockSeconds(), reason: "\(reason), and it cannot be set aside")
      retryAt = now + Self.firstRetryDelay
      return false
    }
  }

  private func retryDelay(after failures: Int) -> Duration {
    var delay = Self.firstRetryDelay
    for _ in 0..<min(failures, 8) where delay < Self.longestRetryDelay {
      delay = delay * 2
    }
    return min(delay, Self.longestRetryDelay)
  }

  /// Seconds since the epoch.
  private func wallClockSeconds() -> Int64 {
    clock.wallClockMilliseconds() / 1000
  }
}
