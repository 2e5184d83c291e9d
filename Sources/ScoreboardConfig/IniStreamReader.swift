import CInih

/// Reads an INI text with libinih's `ini_parse_stream`, feeding it one line at a time.
///
/// libinih (as Debian builds it) does not tell its handler the line number, calls it only
/// for keys, and reports only the first malformed line. Since libinih processes each line
/// its reader returns before asking for the next, the handler's line is the one the
/// reader returned last; and the reader classifies every line itself (see `IniLine`) to
/// record sections without keys and report every malformed line.
final class IniStreamReader {
  private let file: String
  private let lines: [[UInt8]]
  private var lineNumber = 0
  private var currentLine = IniLine.blankOrComment
  private var followsEntry = false
  private var document = IniDocument()

  /// Reads `text`; `file` names it in diagnostics.
  static func read(_ text: String, file: String) -> IniDocument {
    let reader = IniStreamReader(text: text, file: file)
    return reader.read()
  }

  private init(text: String, file: String) {
    self.file = file
    var bytes = Array(text.utf8)
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    if bytes.starts(with: byteOrderMark) {
      bytes.removeFirst(byteOrderMark.count)
    }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { line in line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line) }
    if lines.last?.isEmpty == true {
      lines.removeLast()
    }
    self.lines = lines
  }

  private func read() -> IniDocument {
    let context = Unmanaged.passUnretained(self).toOpaque()
    withExtendedLifetime(self) {
      // Every problem is recorded by the reader and handler; libinih's own result, the
      // first malformed line, adds nothing.
      _ = ini_parse_stream(readIniLine, context, receiveIniEntry, context)
    }
    document.lineCount = lines.count
    return document
  }

  /// Copies the next line into libinih's buffer of `capacity` bytes, or returns false at
  /// the end of the text. A line that does not fit, or holds a NUL, is reported and
  /// given to libinih as an empty line.
  fileprivate func readLine(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Bool {
    guard lineNumber < lines.count else { return false }
    var line = lines[lineNumber]
    lineNumber += 1
    let longestLine = capacity - 2
    if line.count > longestLine {
      report("line too long: expected at most \(longestLine) bytes, found \(line.count)")
      line = []
    } else if line.contains(0) {
      report("unexpected NUL character")
      line = []
    }
    classify(line)
    let bytes = line + [UInt8(ascii: "\n"), 0]
    bytes.withUnsafeBytes { source in
      UnsafeMutableRawPointer(buffer).copyMemory(
        from: source.baseAddress!, byteCount: source.count)
    }
    return true
  }

  /// Takes one `key = value` pair from libinih.
  fileprivate func receive(key: String, value: String) {
    guard currentLine == .entry else { return }
    guard !key.isEmpty else {
      report("expected a key before '=', found nothing")
      return
    }
    let entry = IniEntry(key: key, value: Self.removingHashComment(from: value), line: lineNumber)
    if document.sections.isEmpty {
      document.entriesBeforeFirstSection.append(entry)
    } else {
      document.sections[document.sections.count - 1].entries.append(entry)
    }
  }

  private func classify(_ line: [UInt8]) {
    currentLine = IniLine(bytes: line, followsEntry: followsEntry)
    switch currentLine {
    case .blankOrComment:
      break
    case .continuation:
      report("indented line; values cannot continue on the next line")
    case .section(let title, let trailingText):
      followsEntry = false
      document.sections.append(
        IniSection(title: title.words().joined(separator: " "), line: lineNumber, isComplete: true))
      if !trailingText.isEmpty && !trailingText.hasPrefix("#") && !trailingText.hasPrefix(";") {
        report("expected nothing after ']', found \"\(trailingText)\"")
      }
    case .unclosedSection(let text):
      report("expected ']' to end the section header, found \"\(text)\"", inSection: false)
      document.sections.append(
        IniSection(title: String(text.dropFirst()).trimmed(), line: lineNumber, isComplete: false))
    case .entry:
      followsEntry = true
    case .missingSeparator(let text):
      report("expected 'key = value', found \"\(text)\"")
    }
  }

  private func report(_ message: String, inSection: Bool = true) {
    let section = document.sections.last.flatMap { $0.isComplete ? $0.title : nil }
    document.diagnostics.append(
      Diagnostic(
        file: file, line: lineNumber, section: inSection ? section : nil, message: message))
  }

  /// The value up to a `#` that starts it or follows whitespace (an inline comment; libinih
  /// itself removes only those starting with ` ;`).
  private static func removingHashComment(from value: String) -> String {
    var previous: Character = " "
    for index in value.indices {
      if value[index] == "#" && previous.isWhitespace {
        return value[..<index].trimmed()
      }
      previous = value[index]
    }
    return value
  }
}

/// libinih's reader callback: the next line, or nil at the end.
private func readIniLine(
  buffer: UnsafeMutablePointer<CChar>?, capacity: Int32, context: UnsafeMutableRawPointer?
) -> UnsafeMutablePointer<CChar>? {
  guard let buffer, let context else { return nil }
  let reader = Unmanaged<IniStreamReader>.fromOpaque(context).takeUnretainedValue()
  return reader.readLine(into: buffer, capacity: Int(capacity)) ? buffer : nil
}

/// libinih's handler callback: one `key = value` pair; nonzero means carry on.
private func receiveIniEntry(
  context: UnsafeMutableRawPointer?, section: UnsafePointer<CChar>?,
  key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
) -> Int32 {
  guard let context, let key, let value else { return 1 }
  let reader = Unmanaged<IniStreamReader>.fromOpaque(context).takeUnretainedValue()
  reader.receive(key: String(cString: key), value: String(cString: value))
  return 1
}
