#if SYSTEM_CALL_TRACE
  /// The system calls LinuxIO made inside `record(_:)`, in order, and failures to inject:
  /// how tests see that a file is written, flushed and renamed in the right order, and
  /// what happens when a disk fails at any one step. Debug builds only.
  ///
  /// The trace belongs to the task that runs `record(_:)` (a task-local value), so tests
  /// running in parallel do not see each other's calls.
  final class SystemCallTrace: @unchecked Sendable {
    /// One call: its C name, the descriptor it was given and the paths, if any.
    struct Call: Hashable, Sendable, CustomStringConvertible {
      var name: String
      var descriptor: CInt?
      var paths: [String]

      var description: String {
        let arguments = (descriptor.map { ["fd \($0)"] } ?? []) + paths
        return "\(name)(\(arguments.joined(separator: ", ")))"
      }
    }

    private struct Failure {
      var matches: (Call) -> Bool
      var errno: Errno
      var remaining: Int
    }

    /// The calls made so far, oldest first; failed ones included.
    private(set) var calls: [Call] = []
    private var failures: [Failure] = []

    @TaskLocal static var current: SystemCallTrace?

    private init() {}

    /// Runs `body` with a new trace recording the calls it makes; `prepare` may set up
    /// failures first.
    static func record<Result>(
      failing prepare: (SystemCallTrace) -> Void = { _ in },
      _ body: () throws -> Result
    ) rethrows -> (result: Result, trace: SystemCallTrace) {
      let trace = SystemCallTrace()
      prepare(trace)
      let result = try $current.withValue(trace) { try body() }
      return (result, trace)
    }

    /// Makes the next `times` calls named `name` (that `matches` accepts) fail with
    /// `errno` instead of being made.
    func fail(
      _ name: String, with errno: Errno, times: Int = 1,
      where matches: @escaping (Call) -> Bool = { _ in true }
    ) {
      failures.append(
        Failure(matches: { $0.name == name && matches($0) }, errno: errno, remaining: times))
    }

    /// Records `call`; returns the error to fail it with, if one was asked for.
    func intercept(_ call: Call) -> Errno? {
      calls.append(call)
      guard let index = failures.firstIndex(where: { $0.remaining > 0 && $0.matches(call) })
      else { return nil }
      failures[index].remaining -= 1
      return failures[index].errno
    }

    /// The names of the calls made, in order.
    var names: [String] {
      calls.map(\.name)
    }
  }
#endif
