@preconcurrency import Glibc
import LinuxIO
import ScoreboardSettings
import Testing

@Suite struct LoggerTests {
  @Test(arguments: [
    (Logger.Style.journal, LogLevel.warning, "<4>display main: no answer\n"),
    (.journal, .info, "<6>display main: no answer\n"),
    (.terminal, .warning, "scoreboardd: warning: display main: no answer\n"),
    (.terminal, .error, "scoreboardd: error: display main: no answer\n"),
  ])
  func lineFormat(style: Logger.Style, level: LogLevel, expected: String) {
    let logger = Logger(programName: "scoreboardd", style: style)
    #expect(logger.line(level, "display main: no answer") == expected)
  }

  @Test func oneLinePerMessage() {
    let logger = Logger(programName: "scoreboardd", style: .journal)
    #expect(logger.line(.error, "first\nsecond\r\nthird") == "<3>first second third\n")
  }

  @Test func controlCharactersAreEscaped() {
    let logger = Logger(programName: "scoreboardd", style: .journal)
    #expect(
      logger.line(.notice, "saved field \u{1B}[2Jx\u{7}\ttab\u{9B}1m dropped")
        == "<5>saved field \\u{1B}[2Jx\\u{7}\ttab\\u{9B}1m dropped\n")
  }

  @Test func dropsMessagesBelowTheMinimumLevel() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let logger = Logger(
      output: writeEnd, programName: "scoreboardd", minimumLevel: .notice, style: .journal)
    logger.debug("debug")
    logger.info("info")
    logger.notice("notice")
    logger.warning("warning")
    logger.error("error")
    try writeEnd.close()
    #expect(try readEnd.readToEnd() == Array("<5>notice\n<4>warning\n<3>error\n".utf8))
  }

  @Test func levelsAreOrderedByImportance() {
    #expect(LogLevel.debug < .info)
    #expect(LogLevel.warning < .error)
    #expect(LogLevel.allCases.max() == .error)
  }

  @Test func automaticStyleIsJournalForAPipe() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    #expect(Logger.Style.automatic(for: writeEnd) == .journal)
  }

  @Test func automaticStyleIsTerminalForATerminalOutsideTheJournal() throws {
    let pseudoTerminal = try PseudoTerminal.open()
    defer { try? pseudoTerminal.master.close() }
    let expected: Logger.Style = getenv("JOURNAL_STREAM") == nil ? .terminal : .journal
    #expect(Logger.Style.automatic(for: pseudoTerminal.master) == expected)
  }
}
