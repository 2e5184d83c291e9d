/// Checks of texts that reach a terminal or the journal.
public enum TextCheck {
  /// Stops the process if `json` holds a C0 control character outside an escape: JSON
  /// forbids them in strings.
  public static func requireValidJSONText(_ json: String) {
    precondition(!json.unicodeScalars.contains { $0.value < 0x20 }, "raw control in \(json)")
  }

  /// Stops the process if `message` holds a C0 or C1 control character or DEL, which a
  /// terminal showing the message would act on.
  public static func requireNoControlCharacters(_ message: String) {
    precondition(
      !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
      "raw control character in \(message.debugDescription)")
  }
}
