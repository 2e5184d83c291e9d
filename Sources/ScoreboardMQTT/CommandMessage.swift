/// A request that arrived on `<base>/command`: a control-protocol line and, when the
/// sender gave one, an id to answer it under and to recognise it by if it comes again.
///
/// The payload is either the line itself (`add home +1`) or a JSON object
/// `{"id":"abc","request":"add home +1"}`; MQTT 5 correlation data, when present, is an id
/// too (the JSON id wins when both are there).
public struct CommandMessage: Hashable, Sendable {
  /// How the request came, which decides how its reply is written.
  public enum Form: Hashable, Sendable {
    /// The payload was the line.
    case plain
    /// The payload was a JSON object.
    case json
  }

  /// The longest payload read, in bytes.
  public static let maximumBytes = 512
  /// The longest correlation data read, in bytes.
  public static let maximumCorrelationBytes = 128

  /// The id from the JSON object, else from the correlation data; nil without either.
  public var id: String?
  /// The control-protocol request, without a line end.
  public var line: String
  public var form: Form

  public init(id: String? = nil, line: String, form: Form = .plain) {
    self.id = id
    self.line = line
    self.form = form
  }

  /// Reads a payload and the message's correlation data.
  ///
  /// One line end (`\n` or `\r\n`) after a plain line is dropped. Correlation data is the
  /// id as it is when it is UTF-8 without control characters, else its bytes in
  /// hexadecimal (`0x01ff`).
  /// - Throws: `CommandMessageError` for an empty or oversized payload, one that is not
  ///   UTF-8, a line with control characters, or JSON that is not a request.
  public init(payload: [UInt8], correlationData: [UInt8]? = nil) throws(CommandMessageError) {
    guard !payload.isEmpty else { throw CommandMessageError.empty }
    guard payload.count <= Self.maximumBytes else {
      throw CommandMessageError.tooLong(bytes: payload.count, limit: Self.maximumBytes)
    }
    guard let text = String(validatingUTF8Bytes: payload) else {
      throw CommandMessageError.notUTF8
    }
    var id: String?
    if let correlationData, !correlationData.isEmpty {
      guard correlationData.count <= Self.maximumCorrelationBytes else {
        throw CommandMessageError.correlationDataTooLong(
          bytes: correlationData.count, limit: Self.maximumCorrelationBytes)
      }
      id = Self.id(fromCorrelationData: correlationData)
    }
    var line: String
    let firstByte = payload.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if firstByte == UInt8(ascii: "{") {
      let object: JSONValue
      do throws(JSONError) {
        object = try JSONValue.parse(payload, maximumDepth: 2)
      } catch {
        throw CommandMessageError.malformedJSON(error)
      }
      guard let request = object["request"] else { throw CommandMessageError.missingRequest }
      guard let requestText = request.stringValue else {
        throw CommandMessageError.notAString("request")
      }
      if let jsonID = object["id"], !jsonID.isNull {
        guard let idText = jsonID.stringValue else { throw CommandMessageError.notAString("id") }
        guard !Self.hasControlCharacters(idText) else {
          throw CommandMessageError.controlCharacter("id")
        }
        id = idText
      }
      line = requestText
      form = .json
    } else {
      var bytes = payload[...]
      if bytes.last == UInt8(ascii: "\n") {
        bytes = bytes.dropLast()
        if bytes.last == UInt8(ascii: "\r") {
          bytes = bytes.dropLast()
        }
      }
      line = bytes.count == payload.count ? text : String(decoding: bytes, as: UTF8.self)
      form = .plain
    }
    guard !Self.hasControlCharacters(line) else {
      throw CommandMessageError.controlCharacter("request")
    }
    guard line.unicodeScalars.contains(where: { $0 != " " && $0 != "\t" }) else {
      throw CommandMessageError.emptyRequest
    }
    self.id = id
    self.line = line
  }

  /// The payload that answers this request with `response` (a control-protocol answer,
  /// `ok home 13` or `error ...`): the answer itself for a plain request, and
  /// `{"id":"abc","reply":"ok home 13"}` for a JSON one (without `id` when it had none).
  public func replyPayload(_ response: String) -> String {
    switch form {
    case .plain:
      return response
    case .json:
      var members: [(key: String, json: String)] = []
      if let id {
        members.append(("id", JSONText.string(id)))
      }
      members.append(("reply", JSONText.string(response)))
      return JSONText.object(members)
    }
  }

  /// C0 controls other than tab, DEL and C1: a line break would smuggle a second request
  /// in, and an escape sequence would reach the journal.
  static func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value)
    }
  }

  /// Correlation data as an id: its text, or `0x` and its bytes in hexadecimal.
  static func id(fromCorrelationData bytes: [UInt8]) -> String {
    if let text = String(validatingUTF8Bytes: bytes), !hasControlCharacters(text) {
      return text
    }
    return "0x"
      + bytes.map { byte in
        let hex = String(byte, radix: 16)
        return hex.count == 1 ? "0" + hex : hex
      }.joined()
  }
}
