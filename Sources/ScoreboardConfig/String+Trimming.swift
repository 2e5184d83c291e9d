extension StringProtocol {
  /// The text without leading and trailing whitespace.
  func trimmed() -> String {
    let isSpace: (Character) -> Bool = { $0.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }

  /// The text split at runs of whitespace.
  func words() -> [String] {
    split(whereSeparator: { $0.isWhitespace }).map { String($0) }
  }
}
