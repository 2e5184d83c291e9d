import LinuxIO
import ScoreboardConfig
import ScoreboardCore
import ScoreboardDrivers

extension Daemon {
  /// State files larger than this are not read.
  static let stateFileLimit = 64 * 1024

  /// Carries out `action` and reports what happened; the error message when the
  /// scoreboard refuses the request.
  func perform(_ action: Action, at time: Instant, source: String) -> ScoreboardError? {
    do {
      report(try board.perform(action, at: max(time, Self.now())), source: source)
      return nil
    } catch {
      logger.log(.warning, "\(source): \(action): \(error)")
      return error
    }
  }

  /// Logs what changed (committed values at info level, the rest at debug level), tells
  /// the control socket's watchers, and notes what must be saved.
  func report(_ events: [ScoreboardEvent], source: String?) {
    let origin = source.map { " (\($0))" } ?? ""
    for event in events {
      if let line = ControlEvent(event, spec: board.spec)?.line {
        control?.broadcast(line)
      }
      switch event {
      case .valueChanged(let name, let from, let to):
        stateNeedsSaving = true
        statusMayHaveChanged = true
        guard let field = board.spec.field(named: name) else { continue }
        logger.log(.info, "\(name): \(field.text(of: from)) -> \(field.text(of: to))\(origin)")
      case .brightnessChanged(let level):
        stateNeedsSaving = true
        logger.log(.info, "brightness \(level)\(origin)")
      case .blankChanged(let blanked):
        stateNeedsSaving = true
        logger.log(.info, blanked ? "blanked\(origin)" : "unblanked\(origin)")
      case .resetArmed:
        logger.log(.notice, "reset armed: press reset again to reset every field\(origin)")
      case .refused(let name):
        logger.log(.debug, "\(name): key refused (outside the field's limits)")
      case .editingBegan(let name):
        logger.log(.debug, "\(name): editing")
      case .editingChanged(let name, let text):
        logger.log(.debug, "\(name): entry \"\(text)\"")
      case .editingEnded(let name, let committed):
        logger.log(.debug, "\(name): editing \(committed ? "committed" : "cancelled")")
      case .focusChanged(let name):
        logger.log(.debug, "focus on \(name)")
      }
    }
  }

  // MARK: - The state file

  /// Reads the saved scores; a damaged file is set aside and the defaults are used.
  func restoreState() {
    guard let path = configuration.service.stateFile else { return }
    let bytes: [UInt8]?
    do {
      bytes = try AtomicFile.read(path, limit: Self.stateFileLimit)
    } catch {
      logger.log(.error, "cannot read the saved scores: \(error); starting from the defaults")
      return
    }
    guard let bytes else {
      logger.log(.info, "no saved scores in \(path) yet; starting from the defaults")
      return
    }
    do {
      let saved = try SavedState(parsing: String(decoding: bytes, as: UTF8.self))
      for name in saved.apply(to: &board).sorted() {
        logger.log(.notice, "saved field \(name) is no longer configured or does not fit; dropped")
      }
      logger.log(.info, "restored the scores from \(path)")
    } catch {
      let aside = (try? AtomicFile.setAside(path)) ?? "(could not be renamed)"
      logger.log(
        .error, "\(path) is damaged (\(error)); set aside as \(aside); starting from the defaults")
      stateNeedsSaving = true
    }
  }

  /// Writes the state file if a committed change has not been saved yet: atomically,
  /// so a power cut leaves the old file or the new one, never a mix.
  func saveStateIfNeeded() {
    guard stateNeedsSaving else { return }
    stateNeedsSaving = false
    guard let path = configuration.service.stateFile else { return }
    do {
      try AtomicFile.write(Array(SavedState(from: board.settled).encoded().utf8), to: path)
      if stateSaveFailing {
        stateSaveFailing = false
        logger.log(.notice, "the scores are saved in \(path) again")
      }
    } catch {
      if !stateSaveFailing {
        stateSaveFailing = true
        logger.log(.error, "cannot save the scores: \(error); they live in memory only for now")
      }
    }
  }

  // MARK: - Status

  /// The displays with whether all their drivers are online, in configuration order.
  func displayStatus() -> [ControlStatus.Device] {
    configuration.displays.map { display in
      let drivers = outputs.filter { $0.configuration.name == display.name }
      return ControlStatus.Device(
        name: display.name, isOnline: !drivers.isEmpty && drivers.allSatisfy(\.display.isOnline))
    }
  }

  /// The keypads with whether each is online, in configuration order.
  func keypadStatus() -> [ControlStatus.Device] {
    configuration.keypads.map { keypad in
      let input = inputs.first { $0.configuration.name == keypad.name }
      return ControlStatus.Device(
        name: keypad.name, isOnline: input.map { !$0.isClosed && $0.keypad.isOnline } ?? false)
    }
  }

  /// One line for systemd's STATUS=: `home 12 away 7, 2 displays, 1 keypad (1 offline)`.
  func statusText() -> String {
    let fields = board.spec.fields.map { "\($0.name) \(board.text(of: $0.name) ?? "?")" }
    func summary(_ devices: [ControlStatus.Device], _ noun: String) -> String {
      let offline = devices.filter { !$0.isOnline }.count
      let count = "\(devices.count) \(noun)\(devices.count == 1 ? "" : "s")"
      return offline == 0 ? count : "\(count) (\(offline) offline)"
    }
    return fields.joined(separator: " ") + ", " + summary(displayStatus(), "display") + ", "
      + summary(keypadStatus(), "keypad")
  }

  /// Sends STATUS= when the status line changed (worked out only after a value or a
  /// device's state changed, not on every wakeup).
  func updateStatus() {
    guard statusMayHaveChanged else { return }
    statusMayHaveChanged = false
    let status = statusText()
    guard status != reportedStatus else { return }
    reportedStatus = status
    _ = notifier.status(status)
  }

  /// Tells watchers about displays and keypads that went offline or came back.
  func reportDevicesOnline() {
    for (kind, devices) in [("display", displayStatus()), ("keypad", keypadStatus())] {
      for device in devices {
        let key = "\(kind) \(device.name)"
        guard reportedOnline[key] != device.isOnline else { continue }
        statusMayHaveChanged = true
        if reportedOnline[key] != nil {
          let event: ControlEvent =
            kind == "display"
            ? .display(name: device.name, online: device.isOnline)
            : .keypad(name: device.name, online: device.isOnline)
          control?.broadcast(event.line)
        }
        reportedOnline[key] = device.isOnline
      }
    }
  }
}
