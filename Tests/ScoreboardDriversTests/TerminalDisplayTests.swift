import LinuxIO
import ScoreboardCore
import ScoreboardDrivers
import Testing

@Suite struct TerminalDisplayTests {
  /// A pipe standing in for the display's output, read without blocking.
  final class Output {
    let readEnd: FileDescriptor
    let writeEnd: FileDescriptor

    init() throws {
      (readEnd, writeEnd) = try FileDescriptor.pipe()
      try readEnd.setNonBlocking()
    }

    deinit {
      try? readEnd.close()
      try? writeEnd.close()
    }

    /// Everything written since the last call.
    func take() throws -> String {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        do {
          let count = try buffer.withUnsafeMutableBytes { try readEnd.read(into: $0) }
          bytes += buffer[..<count]
        } catch let error as IOError where error.errno == .wouldBlock {
          return String(decoding: bytes, as: UTF8.self)
        }
      }
    }
  }

  @Test func plainStylePrintsALinePerChange() throws {
    let output = try Output()
    let display = TerminalDisplay(
      name: "main", layout: Fixtures.layout, fields: Fixtures.fields, footer: "help",
      output: output.writeEnd)
    let scenario = [
      Fixtures.frame("12 73"),
      Fixtures.frame("12 73"),
      Fixtures.frame("12 73", brightness: 15),
      Fixtures.frame("13 73", brightness: 15),
      Fixtures.frame("13 73", isBlank: true),
      Fixtures.frame("88888", isBlank: true),
      Fixtures.frame("13 74"),
    ]
    for frame in scenario {
      try display.show(frame, at: .zero)
    }
    display.shutdown(showing: Fixtures.frame("13 74"))
    #expect(
      try output.take()
        == "main: 12  7 3\nmain: 13  7 3\nmain: blank\nmain: 13  7 4\n")
  }

  @Test func plainStylePrintsAClockWithItsColon() throws {
    let output = try Output()
    let display = TerminalDisplay(
      name: "main", layout: Fixtures.layout, fields: Fixtures.clockFields, footer: nil,
      output: output.writeEnd)
    let scenario = [
      Fixtures.frame("01.002", colons: [1]),
      Fixtures.frame("00.592", colons: [1]),
      Fixtures.frame(" 59.92", colons: []),
      Fixtures.frame(" 59.92", colons: []),
      Fixtures.frame(" 59.92"),
      Fixtures.frame(" 59.82", colons: []),
    ]
    for frame in scenario {
      try display.show(frame, at: .zero)
    }
    #expect(
      try output.take()
        == "main: 01:00 2\nmain: 00:59 2\nmain:  59.9 2\nmain:  59.8 2\n")
  }

  @Test func largeStyleDrawsChangesOnly() throws {
    let output = try Output()
    let display = TerminalDisplay(
      name: "main", layout: Fixtures.layout, fields: Fixtures.fields, footer: nil,
      output: output.writeEnd, style: .large)
    var screen = TerminalScreen()

    try display.show(Fixtures.frame("12 73"), at: .zero)
    screen.apply(try output.take())
    let first = try LargeDrawingDecoder(screen: screen).segments(cellCount: 5)
    #expect(first == Fixtures.frame("12 73").cells)
    #expect(!screen.isCursorVisible)

    try display.show(Fixtures.frame("12 73"), at: .zero)
    let unchanged = try output.take()
    #expect(unchanged.isEmpty, "the same frame again draws nothing")

    try display.show(Fixtures.frame("12 74"), at: .zero)
    let update = try output.take()
    // Only the lines of the drawing that changed are written again, not the whole drawing.
    let renderer = LargeFrameRenderer(
      name: "main", cellCount: 5, fields: Fixtures.fields, footer: nil)
    let before = renderer.lines(for: Fixtures.frame("12 73"))
    let after = renderer.lines(for: Fixtures.frame("12 74"))
    #expect(update == renderer.redraw(from: before, to: after))
    #expect(update.utf8.count < renderer.redraw(from: nil, to: after).utf8.count)
    screen.apply(update)
    let decoded = try LargeDrawingDecoder(screen: screen).segments(cellCount: 5)
    #expect(decoded == Fixtures.frame("12 74").cells)

    display.shutdown(showing: Fixtures.frame("00 01"))
    screen.apply(try output.take())
    let final = try LargeDrawingDecoder(screen: screen).segments(cellCount: 5)
    #expect(final == Fixtures.frame("00 01").cells)
    #expect(screen.isCursorVisible)
    #expect(screen.row == LargeFrameRenderer.height + 1)
    #expect(screen.lineFeeds == 0)
    #expect(screen.unknownEscapes.isEmpty)
  }

  @Test func automaticStyleIsPlainForAPipeAndLargeForATerminal() throws {
    let output = try Output()
    let plain = TerminalDisplay(
      name: "main", layout: Fixtures.layout, fields: Fixtures.fields, footer: nil,
      output: output.writeEnd)
    try plain.show(Fixtures.frame("12 73"), at: .zero)
    #expect(try output.take() == "main: 12  7 3\n")

    let pseudoTerminal = try PseudoTerminal.open()
    let terminal = try FileDescriptor.open(
      pseudoTerminal.slavePath, .readWrite, options: [.closeOnExec, .noControllingTerminal])
    defer {
      try? terminal.close()
      try? pseudoTerminal.master.close()
    }
    let large = TerminalDisplay(
      name: "main", layout: Fixtures.layout, fields: Fixtures.fields, footer: nil,
      output: terminal)
    try large.show(Fixtures.frame("12 73"), at: .zero)
    let renderer = LargeFrameRenderer(
      name: "main", cellCount: 5, fields: Fixtures.fields, footer: nil)
    let drawing = renderer.redraw(from: nil, to: renderer.lines(for: Fixtures.frame("12 73")))
    let received = try pseudoTerminal.master.read(count: drawing.utf8.count)
    #expect(String(decoding: received, as: UTF8.self) == drawing)
  }
}
