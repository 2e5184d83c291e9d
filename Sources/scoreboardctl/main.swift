@preconcurrency import Glibc

let socketVariable = getenv("SCOREBOARDD_SOCKET").map { String(cString: $0) }
exit(
  ControlCommandLine.run(
    arguments: Array(CommandLine.arguments.dropFirst()), socketVariable: socketVariable
  ).rawValue)
