import LinuxIO
import ScoreboardCore

/// The state file, where the committed scores survive restarts and power cuts, and how
/// its writes fare.
///
/// A save is durable when `save(_:at:)` returns true: the file was written, flushed,
/// renamed and its folder flushed (`AtomicFile`). When writing fails (a full or
/// read-only SD card, an I/O error), the scoreboard goes on from memory: the store says
/// so once in the journal, keeps the latest state, tries again with a growing delay
/// (and on every new change), and says so again when a write succeeds, which makes
/// every value durable at once.
final class StateStore {
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

  /// The state file; nil when none is configured.
  let path: String?
  private let logger: Logger
  private(set) var health: Health
  /// The state not yet durable, written at the next attempt.
  private var pending: SavedState?
  /// What the file holds, as far as the store knows.
  private var written: SavedState?
  /// When to try writing `pending` again.
  private(set) var retryAt: Instant?
  private var failedAttempts = 0

  /// A store for the state file at `path` (nil for none); nothing is touched yet.
  init(path: String?, logger: Logger) {
    self.path = path
    self.logger = logger
    health = path == nil ? .off : .saved
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
    guard let path else { return nil }
    let bytes: [UInt8]?
    do {
      bytes = try AtomicFile.read(path, limit: Self.sizeLimit)
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

  /// Writes `state` unless the file holds it already.
  ///
  /// - Returns: Whether `state` is durable now; always true without a state file.
  @discardableResult
  func save(_ state: @autoclosure () -> SavedState, at now: Instant) -> Bool {
    guard let path else { return true }
    let state = state()
    if health == .saved, pending == nil, written == state {
      return true
    }
    pending = state
    return write(state, to: path, at: now)
  }

  /// Writes the pending state again when its retry is due.
  func retryIfDue(at now: Instant) {
    guard let path, let pending, let retryAt, now >= retryAt else { return }
    _ = write(pending, to: path, at: now)
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
    let bytes = Array(state.encoded().utf8)
    var result = attempt(bytes, to: path)
    if case .failure = result, replaceEntryThatIsNotAFile(at: path, now: now) {
      result = attempt(bytes, to: path)
    }
    switch result {
    case .success:
      if case .failing(let since, _) = health {
        logger.notice(
          "the scores are saved in \(path) again, after \(WallClock.now() - since) s of failures")
      }
      health = .saved
      written = state
      pending = nil
      retryAt = nil
      failedAttempts = 0
      return true
    case .failure(let failure):
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
        health = .failing(since: WallClock.now(), reason: reason)
      }
      retryAt = now + retryDelay(after: failedAttempts)
      failedAttempts += 1
      return false
    }
  }

  /// One write of the file; the reason in words when it fails.
  private func attempt(_ bytes: [UInt8], to path: String) -> Result<Void, WriteFailure> {
    do {
      try AtomicFile.write(bytes, to: path)
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
      health = .failing(since: WallClock.now(), reason: "\(reason), and it cannot be set aside")
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
}
