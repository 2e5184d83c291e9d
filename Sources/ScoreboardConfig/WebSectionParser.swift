import ScoreboardSettings

/// Reads the `[web]` section: the address and port the board's web server listens on,
/// who may load the board page, the connection limits, the board's name on its pages and
/// the folder of the pages.
enum WebSectionParser {
  static let keys = [
    "listen", "board-page", "connections", "connections-per-address", "name", "pages",
  ]

  /// The settings, or nil when something in the section is wrong; a relative `pages`
  /// folder is taken from `configurationFolder`, the folder of the configuration file.
  static func parse(_ reader: inout SectionReader, configurationFolder: String) -> WebSettings? {
    reader.reportUnknownKeys(known: keys)
    var settings = WebSettings()
    if let entry = reader.entry("listen") {
      switch parseListen(entry.value) {
      case .success(let listen): (settings.address, settings.port) = listen
      case .failure(let problem): reader.report(problem.message, key: "listen")
      }
    }
    if let page: WebSettings.BoardPage = reader.choice("board-page") {
      settings.boardPage = page
    }
    if let limit = reader.integer("connections", in: 1...1000) {
      settings.connectionLimit = limit
    }
    if let limit = reader.integer("connections-per-address", in: 1...1000) {
      settings.connectionsPerAddress = limit
    }
    if settings.connectionsPerAddress > settings.connectionLimit,
      reader.entry("connections-per-address") != nil
    {
      reader.report(
        "is more than connections (\(settings.connectionLimit))", key: "connections-per-address")
    }
    if let name = reader.text("name", expected: "a name such as Court 1") {
      settings.name = name
    }
    if let pages = reader.text("pages", expected: "a folder such as \(WebSettings.installedPages)")
    {
      settings.pages = pages.hasPrefix("/") ? pages : configurationFolder + "/" + pages
    }
    return reader.hasErrors ? nil : settings
  }

  /// Why a `listen` value is wrong.
  struct Problem: Error {
    var message: String
  }

  /// `ADDRESS:PORT`: `127.0.0.1:8080`, `0.0.0.0:8080`, `[::]:8080`, `[::1]:8080`.
  static func parseListen(_ text: String) -> Result<(String, Int), Problem> {
    let expected = "expected ADDRESS:PORT such as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080"
    let address: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"),
        text[text.index(after: close)...].hasPrefix(":")
      else { return .failure(Problem(message: "\(expected), found \"\(text)\"")) }
      address = text[text.index(after: text.startIndex)..<close]
      portText = text[text.index(close, offsetBy: 2)...]
      guard isIPv6(address) else {
        return .failure(Problem(message: "\"\(address)\" is not an IPv6 address; \(expected)"))
      }
    } else {
      guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
        return .failure(Problem(message: "\(expected), found \"\(text)\""))
      }
      address = text[..<colon]
      portText = text[text.index(after: colon)...]
      guard isIPv4(address) else {
        return .failure(
          Problem(
            message: "\"\(address)\" is not an IPv4 address (a name is not taken); \(expected)"))
      }
    }
    guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isNumber)
    else {
      return .failure(Problem(message: "port \"\(portText)\": expected 1 to 65535"))
    }
    return .success((String(address), port))
  }

  private static func isIPv4(_ text: Substring) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
          && part.allSatisfy(\.isNumber)
          && Int(part)! <= 255
      }
  }

  private static func isIPv6(_ text: Substring) -> Bool {
    let groups = text.split(separator: ":", omittingEmptySubsequences: false)
    guard text.contains(":"), groups.count >= 3, groups.count <= 8 else { return false }
    let compressions = text.ranges(of: "::").count
    guard compressions <= 1, !text.contains(":::") else { return false }
    if compressions == 0 && groups.count != 8 { return false }
    return groups.allSatisfy { group in
      group.count <= 4 && group.allSatisfy { $0.isHexDigit }
    }
  }
}
