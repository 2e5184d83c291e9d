/// Makes a system call, repeating it while it fails with `EINTR`.
///
/// - Parameters:
///   - operation: The name the error reports (`read`, `poll`).
///   - path: The path the call concerns, if any, for the error.
///   - systemCall: A call that returns -1 and sets `errno` on failure.
/// - Returns: The call's result, which is not -1.
/// - Throws: `IOError` with the call's `errno`. `EBADF` is a programmer error (the
///   descriptor was closed or never opened) and stops the program.
func retryOnInterrupt<Value: FixedWidthInteger & SignedInteger>(
  _ operation: String, path: String? = nil, _ systemCall: () -> Value
) throws -> Value {
  while true {
    let result = systemCall()
    if result != -1 {
      return result
    }
    let error = Errno.current
    precondition(error != .badFileDescriptor, "\(operation) on a descriptor that is not open")
    if error != .interrupted {
      throw IOError(operation: operation, path: path, errno: error)
    }
  }
}
