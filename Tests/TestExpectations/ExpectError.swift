import Testing

/// The error of type `E` that `body` throws, for the checks that follow; `nil`, with an
/// issue recorded at `sourceLocation`, when `body` throws nothing or another error.
///
/// `#expect(throws:)` returns the error only from Swift Testing 6.1 on; this does the same
/// on Swift 6.0 (Debian trixie's swiftlang), so the same tests run on both.
public func expectError<E: Error, R>(
  _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation,
  performing body: () throws -> R
) -> E? {
  do {
    _ = try body()
  } catch let error as E {
    return error
  } catch {
    Issue.record(
      "Expected an error of type \(E.self), but \(error) was thrown",
      sourceLocation: sourceLocation)
    return nil
  }
  Issue.record(
    "Expected an error of type \(E.self), but none was thrown", sourceLocation: sourceLocation)
  return nil
}
