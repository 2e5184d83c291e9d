import LinuxIO
import ScoreboardCore

/// A display drawn on a terminal or printed as text lines: the scoreboard without
/// hardware, for demonstrations, development and tests.
public final class TerminalDisplay: SegmentDisplay {
  /// How frames are written.
  public enum Style: Sendable {
    /// `.large` when the output is a terminal, `.plain` otherwise.
    case automatic
    /// Large seven-segment digits in colour, updated in place (see `LargeFrameRenderer`).
    case large
    /// One line of text per change (see `PlainFrameRenderer`).
    case plain
  }

  private enum Renderer {
    case large(LargeFrameRenderer)
    case plain(PlainFrameRenderer)
  }

  /// The display's name in the configuration, which the drawing and the lines show.
  public let name: String
  private let output: FileDescriptor
  /// Whether the output is a terminal (and not a pipe or a file).
  private let drawsOnTerminal: Bool
  private let renderer: Renderer
  private var lastFrame: Frame?
  /// The lines on the terminal (large style), or the last line printed (plain style);
  /// nil when nothing is known to be shown.
  private var shownLines: [String]?
  private var hasDrawn = false

  /// A display named `name` writing to `output`, which it does not own or close.
  ///
  /// - Parameters:
  ///   - layout: The display's name and number of cells.
  ///   - fields: The fields on this display, for their labels and for the plain text.
  ///   - footer: A line under the large digits, such as a key help.
  ///   - style: How frames are written; by default chosen for `output`.
  ///   - firstRow: The terminal row where the large drawing starts, from 1. Displays
  ///     sharing a terminal start `LargeFrameRenderer.height` or more rows apart.
  public init(
    name: String, layout: DisplayLayout, fields: [FieldSpec], footer: String?,
    output: FileDescriptor, style: Style = .automatic, firstRow: Int = 1
  ) {
    self.name = name
    self.output = output
    drawsOnTerminal = output.isTerminal
    let isLarge =
      switch style {
      case .automatic: output.isTerminal
      case .large: true
      case .plain: false
      }
    if isLarge {
      renderer = .large(
        LargeFrameRenderer(
          name: name, cellCount: layout.cellCount, fields: fields, footer: footer,
          firstRow: firstRow))
    } else {
      renderer = .plain(PlainFrameRenderer(name: name, fields: fields))
    }
  }

  /// Draws `frame` (large style) or prints its line (plain style), writing only the
  /// lines that changed; nothing when the frame or its text is unchanged.
  ///
  /// - Throws: `IOError` naming `write`; the next frame is then drawn in full.
  public func show(_ frame: Frame, at now: Instant) throws {
    guard frame != lastFrame else { return }
    let previous = shownLines
    lastFrame = nil
    shownLines = nil
    switch renderer {
    case .large(let large):
      let lines = large.lines(for: frame)
      let text = large.redraw(from: previous, to: lines)
      hasDrawn = hasDrawn || !text.isEmpty
      try output.writeAll(text)
      shownLines = lines
    case .plain(let plain):
      let line = plain.line(for: frame)
      if previous != [line] {
        try output.writeAll(line + "\n")
      }
      shownLines = [line]
    }
    lastFrame = frame
  }

  /// Whether the terminal drawn on hung up; false for a pipe or a file.
  public var terminalHungUp: Bool {
    drawsOnTerminal && output.isHungUp
  }

  /// Shows `finalFrame` if given; in large style the cursor then moves below the drawing
  /// and shows again, so the last frame stays on the terminal after the program ends.
  public func shutdown(showing finalFrame: Frame?) {
    if let finalFrame {
      try? show(finalFrame, at: .zero)
    }
    if case .large(let large) = renderer, hasDrawn {
      try? output.writeAll(large.ending)
    }
  }
}
