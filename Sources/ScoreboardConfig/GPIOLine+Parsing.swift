import ScoreboardSettings

extension GPIOLine {
  /// Why a text is not a GPIO line.
  struct SyntaxError: Error {
    var message: String
  }

  /// What the names of the Raspberry Pi's header lines start with, before their number.
  private static let gpioPrefix = "GPIO"
  /// What a chip's name starts with, before its number.
  private static let chipPrefix = "gpiochip"

  /// The syntax, for messages.
  private static let expected =
    "expected a GPIO line: a name such as GPIO17, or a chip and offset such as gpiochip0:17"

  /// Reads a line: a name (`GPIO17`, in any case and normalised to capitals, or another
  /// name of letters, digits, `_`, `-` and `.`), or a chip and an offset separated by `:`.
  /// The chip is a path (`/dev/gpiochip0`), a chip's name (`gpiochip0`) or its number
  /// (`0`), the last two meaning the path under `/dev`.
  init(parsing text: String) throws(SyntaxError) {
    guard let colon = text.lastIndex(of: ":") else {
      self = .name(try Self.name(parsing: text))
      return
    }
    let chipText = String(text[..<colon])
    let offsetText = String(text[text.index(after: colon)...])
    guard let chip = Self.chipPath(parsing: chipText) else {
      throw SyntaxError(
        message: "expected a chip such as gpiochip0, /dev/gpiochip0 or 0 before ':', "
          + "found \(Listing.found(chipText))")
    }
    guard let offset = Self.number(parsing: offsetText) else {
      throw SyntaxError(
        message: "expected a line offset after '\(chipText):', a whole number 0 or more, "
          + "found \(Listing.found(offsetText))")
    }
    self = .offset(chip: chip, offset: offset)
  }

  /// A line name: `GPIO` and a number become `GPIO17`; other names are kept as written.
  private static func name(parsing text: String) throws(SyntaxError) -> String {
    let upper = text.uppercased()
    if upper.hasPrefix(gpioPrefix), let number = number(parsing: upper.dropFirst(gpioPrefix.count))
    {
      return gpioPrefix + String(number)
    }
    if text.lowercased().hasPrefix(chipPrefix),
      number(parsing: text.dropFirst(chipPrefix.count)) != nil
    {
      throw SyntaxError(
        message: "expected ':' and a line offset after the chip, as in \(text):17, "
          + "found \"\(text)\"")
    }
    guard let first = text.unicodeScalars.first, isLetter(first), upper != gpioPrefix,
      text.unicodeScalars.allSatisfy({
        isLetter($0) || isDigit($0) || "_-.".unicodeScalars.contains($0)
      })
    else {
      var message = "\(expected), found \(Listing.found(text))"
      if number(parsing: text) != nil {
        message += "; did you mean GPIO\(text)?"
      }
      throw SyntaxError(message: message)
    }
    return text
  }

  /// A chip's path: a path as written, or `gpiochipN` or `N` under `/dev`.
  private static func chipPath(parsing text: String) -> String? {
    if text.hasPrefix("/") && text.count > 1 {
      return text
    }
    let name =
      text.lowercased().hasPrefix(chipPrefix) ? text.dropFirst(chipPrefix.count) : Substring(text)
    return number(parsing: name).map { "/dev/\(chipPrefix)\($0)" }
  }

  /// A whole number of decimal digits alone (no sign), 0 or more.
  private static func number(parsing text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.unicodeScalars.allSatisfy(isDigit) else { return nil }
    return Int(text)
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar)
  }

  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }
}
