import ScoreboardSettings

extension SectionReader {
  /// One GPIO line (`GPIO17`, `gpiochip0:17`); see `GPIOLine(parsing:)`.
  mutating func gpioLine(_ key: String) -> GPIOLine? {
    guard let entry = entry(key) else { return nil }
    let count = entry.value.words().count
    guard count <= 1 else {
      report("expected one GPIO line, found \(count)", at: entry)
      return nil
    }
    return gpioLine(entry.value, at: entry)
  }

  /// GPIO lines separated by spaces, each once, as many as `counts` allows.
  mutating func gpioLines(_ key: String, counts: ClosedRange<Int>) -> [GPIOLine]? {
    guard let entry = entry(key) else { return nil }
    let words = entry.value.words()
    let expected = "expected \(counts.lowerBound) to \(counts.upperBound) GPIO lines"
    guard !words.isEmpty else {
      report("\(expected) separated by spaces, such as GPIO5 GPIO6, found nothing", at: entry)
      return nil
    }
    guard counts.contains(words.count) else {
      report("\(expected), found \(words.count)", at: entry)
      return nil
    }
    var lines: [GPIOLine] = []
    for word in words {
      guard let line = gpioLine(word, at: entry) else { continue }
      if lines.contains(line) {
        report("expected each line once, found \(line) twice", at: entry)
      } else {
        lines.append(line)
      }
    }
    return lines.count == words.count ? lines : nil
  }

  /// The line `text` in `entry`'s value, recorded as a use of the line by the entry's key.
  mutating func gpioLine(_ text: String, at entry: IniEntry) -> GPIOLine? {
    do throws(GPIOLine.SyntaxError) {
      let line = try GPIOLine(parsing: text)
      gpioLineUses.append(
        GPIOLineUse(line: line, section: section.title, key: entry.key, fileLine: entry.line))
      return line
    } catch {
      report(error.message, at: entry)
      return nil
    }
  }
}
