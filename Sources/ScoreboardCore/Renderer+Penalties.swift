extension Renderer {
  /// The cells of penalties field `index` at `now`, and the cells its colons follow: in
  /// each slot the player's number, then the time left as `M:SS` (the point before the
  /// colon lit too), the open penalties in the order they serve; empty slots dark. While
  /// a penalty is being given, the first slot shows it (the player's number with the
  /// cursor, and the length chosen).
  static func penaltyRendering(of board: Scoreboard, field index: Int, at now: Instant)
    -> (cells: [Segments], colons: [Int])
  {
    let field = board.spec.fields[index]
    guard case .penalties(let format) = field.kind else {
      return ([Segments].cells(.blank, count: field.width), [])
    }
    var cells = [Segments].cells(.blank, count: field.width)
    var colons: [Int] = []
    if let refusal = board.refusal, refusal.field == index, now < refusal.until {
      return (cells, [])
    }
    if let armed = board.resetArmedAt, !board.blinkIsLit(at: now, anchor: armed) {
      return (cells, [])
    }
    var slots = board.openPenalties(index, at: now).map {
      (player: Optional($0.penalty.player), time: $0.remaining)
    }
    // While a penalty is being given: whether the cursor's phase is lit (nil: no cursor).
    var cursorLit: Bool?
    if let session = board.session, session.field == index,
      case .penalty(let player, let length) = session.entry
    {
      slots.insert(
        (
          player: player.isEmpty ? nil : EditSession.number(player),
          time: format.lengths.indices.contains(length) ? format.lengths[length] : .zero
        ), at: 0)
      if board.spec.cursor != .none {
        cursorLit = board.blinkIsLit(at: now, anchor: session.lastActivity)
      }
    }
    for (slot, shown) in slots.prefix(format.slots).enumerated() {
      let start = slot * format.slotWidth
      if let player = shown.player {
        draw(player, width: format.playerDigits, placeholder: .blank, into: &cells, at: start)
      }
      let time = timeCells(penaltyTime(shown.time))
      let aligned = rightAligned(time.cells, colon: time.colon, width: format.timeDigits)
      for (offset, cell) in aligned.cells.enumerated() {
        cells[start + format.playerDigits + offset] = cell
      }
      if let colon = aligned.colon {
        colons.append(start + format.playerDigits + colon)
      }
      if slot == 0, let lit = cursorLit {
        // The cursor on the player's last cell, as on a number being typed.
        let cell = start + format.playerDigits - 1
        if board.spec.cursor == .dp {
          if lit { cells[cell].insert(.dp) }
        } else {
          cells[cell] = lit ? (cells[cell] == .blank ? .d : cells[cell]) : .blank
        }
      }
    }
    return (cells, colons)
  }

  /// What each slot of penalties field `index` shows at `now`, as text: `17 1:32`; the
  /// slots of the open penalties only.
  public static func penaltySlotTexts(of board: Scoreboard, field index: Int, at now: Instant)
    -> [String]
  {
    guard let format = board.penaltyFormat(of: index) else { return [] }
    return board.openPenalties(index, at: now).prefix(format.slots).map { open in
      "\(open.penalty.player) " + penaltyTime(open.remaining)
    }
  }

  /// A penalty's time left as its slot shows it: `M:SS`, rounded up to the second.
  public static func penaltyTime(_ remaining: Duration) -> String {
    let seconds = (max(remaining.nanoseconds, 0) + ClockText.second - 1) / ClockText.second
    return ClockText.text(.seconds(seconds), tenths: false, minutes: true)
  }
}
