/// Whether a state-changing request comes from a page of the board itself: its `Origin`
/// must be its `Host`, and that `Host` one the board answers to: an IPv4 or IPv6
/// address, or one of the board's own names. A page elsewhere cannot send a matching
/// `Origin`, and a name that an attacker's DNS rebinds to the board is not one of its
/// names.
public enum RequestOrigin {
  /// Why the request is refused, in words; nil when it may go on. `names` are the host
  /// names the board answers to (lowercase, without a port).
  public static func refusal(host: String?, origin: String?, names: Set<String>) -> String? {
    guard let host, !host.isEmpty else { return "a change needs a Host header" }
    guard isBoardHost(host, names: names) else {
      return "this board does not answer to the host name '\(shown(host))'"
    }
    guard let origin else {
      return "a change needs the Origin header browsers send (Origin: http://\(shown(host)))"
    }
    guard origin == "http://" + host || origin == "https://" + host else {
      return "a change from another site (Origin \(shown(origin))) is refused"
    }
    return nil
  }

  /// Whether `host` (a `Host` header: a name or an address, with an optional port) is an
  /// IPv4 or IPv6 address or one of `names`.
  public static func isBoardHost(_ host: String, names: Set<String>) -> Bool {
    var name = Substring(host.lowercased())
    if name.hasPrefix("[") {
      // [::1]:8080
      guard let end = name.firstIndex(of: "]") else { return false }
      let address = name[name.index(after: name.startIndex)..<end]
      let rest = name[name.index(after: end)...]
      return !address.isEmpty && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        && (rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())))
    }
    if let colon = name.lastIndex(of: ":") {
      guard isPort(name[name.index(after: colon)...]) else { return false }
      name = name[..<colon]
    }
    if name.hasSuffix(".") {
      name = name.dropLast()
    }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 4,
      parts.allSatisfy({ part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(isDigit) && Int(part)! <= 255
      })
    {
      return true
    }
    return names.contains(String(name))
  }

  private static func isPort(_ text: Substring) -> Bool {
    !text.isEmpty && text.count <= 5 && text.allSatisfy(isDigit)
  }

  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }

  /// Outside text as an answer may quote it: at most 100 characters, C0 and C1 control
  /// characters and DEL dropped.
  private static func shown(_ text: String) -> String {
    String(
      text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
        .prefix(100).map(Character.init))
  }
}
