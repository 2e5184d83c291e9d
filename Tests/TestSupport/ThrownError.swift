/// The error of type `E` that `body` throws, for a test to look at: the alternative to
/// taking `#expect(throws:)` as a value, which Swift 6.0 does not have.
///
/// - Throws: `TestSupportError` when `body` returns, or throws an error of another type.
public func thrownError<E: Error, Result>(
  _ errorType: E.Type, by body: () throws -> Result
) throws -> E {
  let result: Result
  do {
    result = try body()
  } catch let error as E {
    return error
  } catch {
    throw TestSupportError("expected a \(E.self), caught \(type(of: error)): \(error)")
  }
  throw TestSupportError("expected a \(E.self), but the call returned \(result)")
}
