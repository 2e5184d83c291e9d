/// Reads the text of an INI file into an `IniDocument`, reporting every line that is not
/// valid INI with its number.
struct IniReader {
  /// The longest line, in bytes without the line break: the limit the file format has
  /// always had.
  static let longestLine = 198

  private let file: String
  private var lineNumber = 0
  private var followsEntry = false
  private var document = IniDocument()

  /// Reads `text`; `file` names it in diagnostics.
  static func read(_ text: String, file: String) -> IniDocument {
    var reader = IniReader(file: file)
    var bytes = Array(text.utf8)
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    if bytes.starts(with: byteOrderMark) {
      bytes.removeFirst(byteOrderMark.count)
    }
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { line in line.last == UInt8(ascii: "\r") ? line.dropLast() : line }
    if lines.last?.isEmpty == true {
      lines.removeLast()
    }
    for line in lines {
      reader.read(Array(line))
    }
    reader.document.lineCount = lines.count
    return reader.document
  }

  private init(file: String) {
    self.file = file
  }

  /// Reads the next line. A line that is too long, or holds a NUL, is reported and
  /// otherwise read as an empty line.
  private mutating func read(_ bytes: [UInt8]) {
    lineNumber += 1
    var line = bytes
    if line.count > Self.longestLine {
      report("line too long: expected at most \(Self.longestLine) bytes, found \(line.count)")
      line = []
    } else if line.contains(0) {
      report("unexpected NUL character")
      line = []
    }
    switch IniLine(bytes: line, followsEntry: followsEntry) {
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
    case .entry(let key, let value):
      followsEntry = true
      add(IniEntry(key: key, value: value, line: lineNumber))
    case .missingSeparator(let text):
      report("expected 'key = value', found \"\(text)\"")
    }
  }

  private mutating func add(_ entry: IniEntry) {
    guard !entry.key.isEmpty else {
      report("expected a key before '=', found nothing")
      return
    }
    if document.sections.isEmpty {
      document.entriesBeforeFirstSection.append(entry)
    } else {
      document.sections[document.sections.count - 1].entries.append(entry)
    }
  }

  private mutating func report(_ message: String, inSection: Bool = true) {
    let section = document.sections.last.flatMap { $0.isComplete ? $0.title : nil }
    document.diagnostics.append(
      Diagnostic(
        file: file, line: lineNumber, section: inSection ? section : nil, message: message))
  }
}
