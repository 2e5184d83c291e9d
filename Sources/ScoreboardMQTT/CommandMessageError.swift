/// Why a payload on the command topic is not a request.
public enum CommandMessageError: Error, Hashable, Sendable, CustomStringConvertible {
  case empty
  case tooLong(bytes: Int, limit: Int)
  case notUTF8
  /// The request or the id (`what`) has a control character.
  case controlCharacter(String)
  /// The request is only spaces.
  case emptyRequest
  case malformedJSON(JSONError)
  /// A JSON payload without `"request"`.
  case missingRequest
  /// `"request"` or `"id"` (`what`) is not a string.
  case notAString(String)
  case correlationDataTooLong(bytes: Int, limit: Int)

  public var description: String {
    switch self {
    case .empty: "the payload is empty"
    case .tooLong(let bytes, let limit): "the payload has \(bytes) bytes; at most \(limit) are read"
    case .notUTF8: "the payload is not UTF-8"
    case .controlCharacter(let what): "the \(what) contains a control character"
    case .emptyRequest: "expected a request, found nothing; try 'help'"
    case .malformedJSON(let error): error.description
    case .missingRequest: #"the JSON payload has no "request""#
    case .notAString(let what): #""\#(what)" is not a string"#
    case .correlationDataTooLong(let bytes, let limit):
      "the correlation data has \(bytes) bytes; at most \(limit) are read"
    }
  }
}
