@preconcurrency import Glibc
import LinuxIO

/// A program a test starts, with its standard output and standard error on pipes: what
/// the launchers of the daemon and of `scoreboardctl` share.
public struct ChildProcess {
  /// The process.
  public let pid: pid_t
  /// The read ends of its standard output and standard error. Without a terminal,
  /// standard output is a pipe; with one, it is the terminal and this pipe stays empty.
  public let standardOutput: FileDescriptor
  public let standardError: FileDescriptor

  /// The folder of the built products: the test bundle lives beside the binaries, or
  /// `SCOREBOARDD_TEST_PRODUCTS` names another folder of `scoreboardd` and
  /// `scoreboardctl` to test (an installed build, or an older one).
  public static var productsFolder: String {
    if let folder = getenv("SCOREBOARDD_TEST_PRODUCTS") {
      return String(cString: folder)
    }
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    precondition(length > 0, "cannot read /proc/self/exe")
    let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var folder = path[..<(path.lastIndex(of: "/") ?? path.endIndex)]
    // swift-testing runs from `<products>/scoreboarddPackageTests.xctest`.
    while folder.hasSuffix(".xctest") || folder.contains(".xctest/") {
      folder = folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)]
    }
    return String(folder)
  }

  /// Starts `executable` with `arguments` and an environment of `inherited` variables
  /// of the test's own environment and `environment`. Standard input is /dev/null, or
  /// with `terminal` the slave of that pseudo-terminal, which is then also standard
  /// output and the controlling terminal of a session of its own, as the shell of a
  /// terminal window starts a program.
  public init(
    executable: String, arguments: [String], environment: [String: String] = [:],
    inherited: [String] = ["PATH"], terminal: String? = nil
  ) throws {
    let output = try FileDescriptor.pipe()
    let errors = try FileDescriptor.pipe()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    if let terminal {
      // POSIX_SPAWN_SETSID (glibc): a new session, whose first terminal opened becomes
      // its controlling terminal.
      posix_spawnattr_setflags(&attributes, 0x80)
      posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
      posix_spawn_file_actions_adddup2(&actions, 0, 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, output.writeEnd.rawValue, 1)
    }
    posix_spawn_file_actions_adddup2(&actions, errors.writeEnd.rawValue, 2)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var variables: [String: String] = [:]
    for key in inherited {
      if let value = getenv(key) {
        variables[key] = String(cString: value)
      }
    }
    variables.merge(environment) { _, new in new }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }

    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    try output.writeEnd.close()
    try errors.writeEnd.close()
    guard result == 0 else {
      try? output.readEnd.close()
      try? errors.readEnd.close()
      throw IOError(operation: "posix_spawn", path: executable, errno: Errno(rawValue: result))
    }
    pid = child
    standardOutput = output.readEnd
    standardError = errors.readEnd
  }

  /// Reads both pipes to their end and reaps the process: its wait status and what it
  /// wrote, for a short program run to its end.
  public func finish() -> (status: CInt, output: String, errors: String) {
    var collected: [[UInt8]] = [[], []]
    var open = [standardOutput.rawValue, standardError.rawValue]
    var chunk = [UInt8](repeating: 0, count: 4096)
    while open.contains(where: { $0 >= 0 }) {
      var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&entries, 2, -1) > 0 || errno == EINTR else { break }
      for index in open.indices where open[index] >= 0 && entries[index].revents != 0 {
        let count = read(open[index], &chunk, chunk.count)
        if count > 0 {
          collected[index] += chunk[..<count]
        } else if count == 0 || errno != EINTR {
          open[index] = -1
        }
      }
    }
    var status: CInt = 0
    waitpid(pid, &status, 0)
    return (
      status, String(decoding: collected[0], as: UTF8.self),
      String(decoding: collected[1], as: UTF8.self)
    )
  }

  /// Kills the process if it still runs and reaps it, then closes the pipes; for the
  /// launcher's `deinit`.
  public func end(reaped: Bool) {
    if !reaped {
      kill(pid, SIGKILL)
      var status: CInt = 0
      waitpid(pid, &status, 0)
    }
    try? standardOutput.close()
    try? standardError.close()
  }
}
