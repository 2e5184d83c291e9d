@preconcurrency import Glibc
import ScoreboardDaemon

exit(CommandLineInterface.run(arguments: Array(CommandLine.arguments.dropFirst())).rawValue)
