// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for every parser of bytes from outside (`make fuzz`, Tests/Fuzz/run.sh).
//
// Each target is a static library defining `LLVMFuzzerTestOneInput`, which run.sh links
// with `swiftc -sanitize=fuzzer,address` into an executable whose `main` is libFuzzer's.
// (An executable target would not do: SwiftPM renames its entry point and points `main`
// at it, so libFuzzer's `main` would never run.) A package of its own, so that the main
// package's `swift build` and `swift test` never meet a module without `main`.
func scoreboardd(_ module: String) -> Target.Dependency {
  .product(name: module, package: "scoreboardd")
}

let fuzzTargets: [Target] = [
  // evdev records -> EvdevKeyDecoder -> keymap -> Scoreboard.
  .target(
    name: "FuzzEvdev",
    dependencies: ["FuzzSupport", scoreboardd("LinuxIO"), scoreboardd("ScoreboardDrivers")]),
  // Control requests, and the daemon's answers as scoreboardctl reads them.
  .target(name: "FuzzControlRequest", dependencies: ["FuzzSupport"]),
  // Configuration text -> Configuration -> Scoreboard.
  .target(
    name: "FuzzConfiguration", dependencies: ["FuzzSupport", scoreboardd("ScoreboardConfig")]),
  // State file bytes -> its newest slot -> SavedState -> Scoreboard.
  .target(name: "FuzzStateFile", dependencies: ["FuzzSupport", scoreboardd("LinuxIO")]),
  // Payloads from the MQTT broker: state documents, commands, discovery messages.
  .target(
    name: "FuzzMQTTPayload", dependencies: ["FuzzSupport", scoreboardd("ScoreboardMQTT")]),
  // What a web request brings: forms, cookies, Host and Origin, command bodies, and the
  // paired devices' file.
  .target(
    name: "FuzzWebRequest", dependencies: ["FuzzSupport", scoreboardd("ScoreboardWeb")]),
  // Bytes from a serial port or terminal: frames, ACK/NAK answers, terminal keys.
  .target(
    name: "FuzzSerialFrame",
    dependencies: [
      "FuzzSupport", scoreboardd("ProtocolDecoders"), scoreboardd("ScoreboardDrivers"),
    ]),
]

let package = Package(
  name: "ScoreboardFuzz",
  products: fuzzTargets.map { .library(name: $0.name, type: .static, targets: [$0.name]) },
  dependencies: [.package(name: "scoreboardd", path: "../..")],
  targets: [
    // The scoreboard the targets drive, and the checks made after every step.
    .target(name: "FuzzSupport", dependencies: [scoreboardd("ScoreboardCore")])
  ] + fuzzTargets
)
