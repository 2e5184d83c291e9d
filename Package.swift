// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "scoreboardd",
  products: [
    .executable(name: "scoreboardd", targets: ["scoreboardd"]),
    .executable(name: "scoreboardctl", targets: ["scoreboardctl"]),
    // The modules the fuzz targets in Tests/Fuzz (a package of their own) build on.
    .library(name: "ScoreboardCore", targets: ["ScoreboardCore"]),
    .library(name: "ScoreboardConfig", targets: ["ScoreboardConfig"]),
    .library(name: "LinuxIO", targets: ["LinuxIO"]),
    .library(name: "ScoreboardDrivers", targets: ["ScoreboardDrivers"]),
    .library(name: "ProtocolDecoders", targets: ["ProtocolDecoders"]),
    .library(name: "ScoreboardMQTT", targets: ["ScoreboardMQTT"]),
    .library(name: "ScoreboardWeb", targets: ["ScoreboardWeb"]),
  ],
  targets: [
    // The model: fields, edit sessions, undo, segments, renderer. No I/O, no Foundation.
    .target(name: "ScoreboardCore"),
    // The values of settings that the configuration names and the I/O layers apply:
    // serial line settings, GPIO lines and their settings, digit and chain orders, log
    // levels. No I/O, no dependencies.
    .target(name: "ScoreboardSettings"),
    // INI file -> validated Configuration, read by its own reader (no C library).
    .target(name: "ScoreboardConfig", dependencies: ["ScoreboardCore", "ScoreboardSettings"]),
    // libgpiod, v1 (1.6) or v2 (2.x), from the system (apt: libgpiod-dev). Only the C shim
    // uses it.
    .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
    // C shim for Linux interfaces Swift cannot import directly, and one GPIO API over
    // libgpiod v1 and v2.
    .target(name: "CScoreboardLinux", dependencies: ["CGPIOD"]),
    // Swift wrappers over system calls: descriptors, poll loop, terminals, clocks.
    .target(
      name: "LinuxIO", dependencies: ["CScoreboardLinux", "ScoreboardSettings"],
      // Debug builds record system calls for tests that look at them (SystemCallTrace).
      swiftSettings: [.define("SYSTEM_CALL_TRACE", .when(configuration: .debug))]),
    // libmosquitto's headers, from the system (apt: libmosquitto-dev). Not linked: the
    // shim loads the library only for a board with [mqtt], so that the others never
    // load OpenSSL (no pkgConfig here, whose flags would link it).
    .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
    // C shim over libmosquitto: the client on a thread of its own (name resolution and
    // connecting block), its events queued for the loop behind an eventfd.
    .target(name: "CScoreboardMQTT", dependencies: ["CMosquitto"]),
    // MQTT: the broker link, the state document, commands and Home Assistant discovery.
    .target(
      name: "ScoreboardMQTT",
      dependencies: ["ScoreboardCore", "ScoreboardSettings", "CScoreboardMQTT"]),
    // libmicrohttpd's headers, from the system (apt: libmicrohttpd-dev). Not linked: the
    // shim loads the library only for a board with [web].
    .systemLibrary(name: "CMicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // C shim over libmicrohttpd: an HTTP server in the daemon's loop (external epoll
    // mode), and streams of Server-Sent Events.
    .target(name: "CScoreboardWeb", dependencies: ["CMicrohttpd"]),
    // The board's web side without the loop: the server, the routes, the feeds.
    .target(
      name: "ScoreboardWeb",
      dependencies: ["ScoreboardCore", "ScoreboardSettings", "ScoreboardMQTT", "CScoreboardWeb"]),
    // Keypad sources and display sinks.
    .target(
      name: "ScoreboardDrivers", dependencies: ["ScoreboardCore", "ScoreboardSettings", "LinuxIO"]),
    // The daemon's step (`DaemonLogic`): pure, so it may import nothing but the model.
    .target(name: "ScoreboardLogic", dependencies: ["ScoreboardCore"]),
    // Wiring: configuration -> drivers, the event loop.
    .target(
      name: "ScoreboardDaemon",
      dependencies: [
        "ScoreboardCore", "ScoreboardLogic", "ScoreboardSettings", "ScoreboardConfig", "LinuxIO",
        "ScoreboardDrivers", "ScoreboardMQTT", "ScoreboardWeb",
      ]
    ),
    .executableTarget(name: "scoreboardd", dependencies: ["ScoreboardDaemon"]),
    // The command-line client of the control socket.
    .executableTarget(name: "scoreboardctl", dependencies: ["ScoreboardCore", "LinuxIO"]),
    // Independent decoders of the wire protocols, written from the datasheets: they
    // check the drivers' output in tests, benchmarks and hardware-in-the-loop runs.
    .target(name: "ProtocolDecoders"),
    // Benchmarks print their figures (`make bench`); they are not tests.
    // It plays frames on the in-memory lines of TestSupport, and runs the daemon in the
    // process with a game clock on in-memory lines of its own; it is not installed.
    .executableTarget(
      name: "GPIOFrameBenchmark",
      dependencies: [
        "ScoreboardDrivers", "LinuxIO", "TestSupport", "ScoreboardDaemon", "ScoreboardConfig",
        "ScoreboardCore", "ScoreboardSettings", "ProtocolDecoders",
      ],
      path: "Benchmarks/GPIOFrameTime"),
    // scoreboardd against a Python peer and a C floor: latency, staleness, idle cost,
    // memory, start-up and CPU per key; boards through a Mosquitto broker (`make bench`
    // runs it through Benchmarks/run.sh).
    .executableTarget(
      name: "ScoreboardBenchmark",
      dependencies: [
        "LinuxIO", "ProtocolDecoders", "ScoreboardCore", "ScoreboardMQTT", "TestSupport",
      ],
      path: "Benchmarks/ScoreboardBenchmark"),

    // What tests share: temporary folders that always go away, seeded random numbers,
    // small file systems that fail on demand, in-memory GPIO lines and a TM1638 chip on
    // them. Used by tests (and the GPIO frame benchmark) only; never shipped.
    .target(
      name: "TestSupport",
      dependencies: [
        "LinuxIO", "ProtocolDecoders", "ScoreboardSettings", "ScoreboardCore", "ScoreboardDrivers",
      ],
      path: "Tests/TestSupport"),
    // What tests check with that Swift Testing 6.0 does not have: the error that a call
    // throws, as a value. Used by tests only.
    .target(name: "TestExpectations", path: "Tests/TestExpectations"),
    .testTarget(
      name: "ScoreboardCoreTests",
      dependencies: ["ScoreboardCore", "TestExpectations", "TestSupport"]),
    .testTarget(
      name: "ScoreboardConfigTests",
      dependencies: ["ScoreboardConfig", "ScoreboardSettings", "TestExpectations"]),
    .testTarget(
      name: "ScoreboardMQTTTests",
      dependencies: ["ScoreboardMQTT", "ScoreboardCore", "ScoreboardSettings", "TestExpectations"]),
    .testTarget(name: "ScoreboardWebTests", dependencies: ["ScoreboardWeb", "ScoreboardCore"]),
    .testTarget(
      name: "LinuxIOTests",
      dependencies: ["LinuxIO", "ScoreboardSettings", "TestExpectations", "TestSupport"]),
    .testTarget(
      name: "ScoreboardDriversTests",
      dependencies: [
        "ScoreboardDrivers", "ScoreboardSettings", "ProtocolDecoders", "TestExpectations",
        "TestSupport",
      ]),
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "scoreboardd", "scoreboardctl", "LinuxIO", "ProtocolDecoders", "ScoreboardMQTT",
        "TestSupport",
      ]),
    // The control server in a real poll loop, and scoreboardctl spawned against it.
    .testTarget(
      name: "ControlTests",
      dependencies: [
        "ScoreboardDaemon", "ScoreboardLogic", "ScoreboardConfig", "ScoreboardCore", "LinuxIO",
        "scoreboardctl", "TestSupport",
      ]),
    // The daemon's logic, state file and status, in the process, with explicit times and
    // failures injected at the system-call seam.
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "ScoreboardDaemon", "ScoreboardLogic", "ScoreboardCore", "ScoreboardConfig",
        "ScoreboardDrivers", "LinuxIO", "ProtocolDecoders", "TestSupport",
      ]),
  ]
)

// Release builds are made for a key that finds the processor's caches cold
// (docs/ARCHITECTURE.md, "A key on its way to the wire"):
// - they leave out the run-time checks of exclusive access (a `swift_beginAccess` call on
//   every access to a class's stored property or a global), a tenth of the instructions
//   of a key's round; debug builds, which the tests run, keep them, and the compiler's
//   static checks stay on in both;
// - each function goes in a section of its own, so that the linker can place the
//   functions of a key's path (Sources/scoreboardd/key-path.order, written by
//   `make key-path-order`) together: a key then touches a third of the pages of code.
// The daemon's link also packs its relative relocations (`DT_RELR`, glibc 2.36 or later:
// 5 kB instead of 565 kB that the loader read at every start) and exports none of its
// symbols (nothing loads against them; the Swift static library's link would export
// 6,000): 2 MB less resident, with the order file's start-up functions (see there).
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? [])
    + [
      .unsafeFlags(
        ["-enforce-exclusivity=unchecked", "-Xfrontend", "-function-sections"],
        .when(configuration: .release))
    ]
}
if let daemon = package.targets.first(where: { $0.name == "scoreboardd" }) {
  daemon.exclude = ["key-path.order"]
  daemon.linkerSettings = [
    .unsafeFlags(
      [
        "-use-ld=lld", "-Xlinker",
        "--symbol-ordering-file=\(Context.packageDirectory)/Sources/scoreboardd/key-path.order",
        "-Xlinker", "--no-warn-symbol-ordering",
        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--no-export-dynamic",
      ], .when(platforms: [.linux], configuration: .release))
  ]
}
