@preconcurrency import Glibc
import LinuxIO
import Testing

@testable import ScoreboardDaemon

/// What the command line promises: the exit codes `--help`, scoreboardd(8) and the README
/// list are the daemon's, and each of them is one the code ends with; `--check-config`
/// says when a board with `[mqtt]` could not load libmosquitto.
@Suite struct CommandLineInterfaceTests {
  static let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/DaemonTests/CommandLineInterfaceTests.swift
    return parts.joined(separator: "/")
  }()

  static func contents(of relativePath: String) throws -> String {
    let bytes = try FileDescriptor.readRegularFile(repository + "/" + relativePath, limit: 1 << 20)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The whole numbers in `text`, in order.
  static func numbers(in text: Substring) -> [Int32] {
    text.split { !$0.isASCII || !$0.isNumber }.compactMap { Int32($0) }
  }

  static let codes = ExitCode.allCases.map(\.rawValue)

  @Test func theHelpListsTheExitCodesOfTheDaemon() throws {
    let usage = CommandLineInterface.usage
    let list = try #require(usage.firstRange(of: "Exit codes:"))
    #expect(Self.numbers(in: usage[list.upperBound...]) == Self.codes)
  }

  @Test func theManualListsTheExitCodesOfTheDaemon() throws {
    let page = try Self.contents(of: "docs/man/scoreboardd.8")
    let start = try #require(page.firstRange(of: ".SH EXIT STATUS\n"))
    let section = page[start.upperBound...]
    let end = section.firstRange(of: "\n.SH ")?.lowerBound ?? section.endIndex
    let lines = section[..<end].split(separator: "\n")
    // Each code is a tagged paragraph: .TP, then .B CODE.
    let listed = zip(lines, lines.dropFirst()).compactMap { tag, code in
      tag == ".TP" && code.hasPrefix(".B ") ? Int32(code.dropFirst(3)) : nil
    }
    #expect(listed == Self.codes)
  }

  @Test func theReadmeListsTheExitCodesOfTheDaemon() throws {
    let readme = try Self.contents(of: "README.md")
    let start = try #require(readme.firstRange(of: "Exit codes follow sysexits:"))
    let paragraph = readme[start.upperBound...]
    let end = paragraph.firstRange(of: "\n\n")?.lowerBound ?? paragraph.endIndex
    #expect(Self.numbers(in: paragraph[..<end]) == Self.codes)
  }

  /// The codes of a daemon that did not succeed. (A closure within `@Test`'s arguments
  /// crashes Swift 6.0's type checker.)
  static let failureCodes = ExitCode.allCases.filter { $0 != .success }

  /// Every code but success is thrown somewhere in the daemon: no code is promised that
  /// nothing produces.
  @Test(arguments: failureCodes)
  func eachExitCodeIsProduced(code: ExitCode) throws {
    let folder = "Sources/ScoreboardDaemon"
    let directory = try #require(opendir(Self.repository + "/" + folder))
    defer { closedir(directory) }
    var sources = ""
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".swift") {
        sources += try Self.contents(of: folder + "/" + name)
      }
    }
    #expect(sources.contains("exitCode: .\(code)"), "nothing exits with \(code.rawValue)")
  }

  @Test func aLoadedLibmosquittoPassesTheCheck() throws {
    try CommandLineInterface.checkMQTTLibrary("libmosquitto 2.0.21")
  }

  @Test(arguments: [
    "libmosquitto not loaded: libmosquitto.so.1: cannot open shared object file: "
      + "No such file or directory",
    "libmosquitto not loaded: it lacks mosquitto_connect_bind_v5",
  ])
  func aLibmosquittoThatCannotBeLoadedFailsTheCheckNamingThePackage(library: String) {
    var error: DaemonError?
    do {
      try CommandLineInterface.checkMQTTLibrary(library)
    } catch let thrown {
      error = thrown
    }
    #expect(error?.exitCode == .configuration)
    let why = library.dropFirst("libmosquitto not loaded: ".count)
    #expect(error?.message.hasPrefix("[mqtt]: libmosquitto cannot be loaded (\(why)); ") == true)
    #expect(error?.message.hasSuffix("(Debian: apt install libmosquitto1)") == true)
  }
}
