import ScoreboardCore

/// Writes JSON text: strings with their escapes, numbers, arrays and objects of members
/// that are JSON already.
public enum JSONText {
  /// `text` as a JSON string: quotes, backslashes and control characters (C0 and DEL)
  /// escaped, the rest as it is (UTF-8).
  public static func string(_ text: String) -> String {
    JSONString.quoted(text)
  }

  /// A number: integers without a fraction (`12`, not `12.0`), others as Swift prints
  /// them; JSON has no infinity or NaN, so those are `null`.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value.rounded(.towardZero) == value, value.magnitude < JSONValue.exactIntegerLimit {
      return String(Int64(value))
    }
    return String(value)
  }

  /// `[a,b]` of elements that are JSON text already.
  public static func array(_ elements: [String]) -> String {
    "[" + elements.joined(separator: ",") + "]"
  }

  /// `{"key":value,...}` of values that are JSON text already, in the order given.
  public static func object(_ members: [(key: String, json: String)]) -> String {
    // Written into one string: no string a member, no array of them to join.
    var text = "{"
    for member in members {
      if text.utf8.count > 1 {
        text += ","
      }
      text += string(member.key)
      text += ":"
      text += member.json
    }
    return text + "}"
  }
}
