import ScoreboardCore

/// Why a payload is not a state document.
///
/// The description reads like `state document: field home: "value" is not an integer`;
/// control characters in names from the payload are escaped (`\u{1B}`).
public struct StateDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Hashable, Sendable {
    /// The payload is not JSON.
    case malformed(JSONError)
    /// A member (or the document) that must be an object is not.
    case notAnObject(String)
    /// A member that must be there is not.
    case missing(String)
    /// A member is not what `expected` says.
    case wrongType(String, expected: String)
  }

  /// The field concerned; nil for the document as a whole.
  public var field: String?
  public var problem: Problem

  public init(field: String? = nil, problem: Problem) {
    self.field = field
    self.problem = problem
  }

  public var description: String {
    let message =
      switch problem {
      case .malformed(let error): error.description
      case .notAnObject("the document"), .notAnObject("the field"):
        "\(Self.subject(of: problem)) is not an object"
      case .notAnObject(let key): "\"\(key)\" is not an object"
      case .missing(let key): "\"\(key)\" is missing"
      case .wrongType(let key, let expected): "\"\(key)\" is not \(expected)"
      }
    let field = field.map { "field \($0.escapingControlCharacters): " } ?? ""
    return "state document: " + field + message
  }

  private static func subject(of problem: Problem) -> String {
    if case .notAnObject(let subject) = problem { subject } else { "" }
  }
}
