@preconcurrency import Glibc
import LinuxIO
import TestSupport
import Testing

/// The libgpiod backend where no GPIO chip is needed: versions, lookups and requests that
/// fail before they reach a chip. They pass against libgpiod v1 and v2 builds. An empty
/// temporary folder plays a device folder without GPIO chips.
@Suite struct LibgpiodBackendTests {
  /// A chip path that exists on no machine.
  static let missingChip = "/dev/gpiochip-scoreboardd-missing"

  @Test func libraryDescriptionNamesVersionAndAPI() {
    let generation = GPIOLibrary.apiGeneration
    #expect(generation == 1 || generation == 2)
    // libgpiod 1.x has the v1 API and 2.x the v2 API.
    #expect(GPIOLibrary.version.hasPrefix("\(generation)."))
    #expect(GPIOLibrary.description == "libgpiod \(GPIOLibrary.version) (v\(generation) API)")
    #expect(LibgpiodBackend().supportsKernelDebounce == (generation == 2))
  }

  /// Whether this build was made by `make test-gpiod2`, with SCOREBOARDD_LIBGPIOD_V2.
  #if SCOREBOARDD_LIBGPIOD_V2
    static let builtForLibgpiodVersion2 = true
  #else
    static let builtForLibgpiodVersion2 = false
  #endif

  /// `make test-gpiod2` builds with SCOREBOARDD_LIBGPIOD_V2: the shim must then be
  /// compiled against the v2 header and run on libgpiod.so.3.
  @Test(.enabled(if: builtForLibgpiodVersion2, "only make test-gpiod2 builds for libgpiod 2"))
  func builtAgainstLibgpiodVersion2() {
    #expect(GPIOLibrary.description.contains("v2 API"))
    #expect(GPIOLibrary.version.hasPrefix("2."))
  }

  @Test func findingALineWithNoChipsSaysNoLineHasTheName() throws {
    let folder = try TemporaryFolder()
    let backend = LibgpiodBackend(deviceDirectory: folder.path)
    let error = try thrownError(GPIOError.self) { try backend.find("GPIO99") }
    #expect(error.errno == .noSuchFileOrDirectory)
    #expect(
      error.description
        == "find GPIO99: No such file or directory (ENOENT); no GPIO line is named GPIO99")
  }

  @Test func findingALineNoChipHasFails() throws {
    let error = try thrownError(GPIOError.self) {
      try LibgpiodBackend().find("SCOREBOARDD_NO_SUCH_LINE")
    }
    #expect(error.operation == "find")
    #expect(error.line == "SCOREBOARDD_NO_SUCH_LINE")
    #expect(error.errno == .noSuchFileOrDirectory)
  }

  @Test func requestingANamedLineNoChipHasFailsToFindIt() throws {
    let folder = try TemporaryFolder()
    let backend = LibgpiodBackend(deviceDirectory: folder.path)
    let error = try thrownError(GPIOError.self) {
      try backend.request([(.name("GPIO17"), .output())], consumer: "scoreboardd-test")
    }
    #expect(
      error
        == GPIOError(
          operation: "find", line: "GPIO17", errno: .noSuchFileOrDirectory,
          hint: "no GPIO line is named GPIO17"))
  }

  @Test func requestingALineOfAMissingChipNamesTheChip() throws {
    let error = try thrownError(GPIOError.self) {
      try LibgpiodBackend().request(
        [(.offset(chip: Self.missingChip, offset: 3), .output())], consumer: "scoreboardd-test")
    }
    #expect(error.errno == .noSuchFileOrDirectory)
    #expect(
      error.description
        == "request \(Self.missingChip):3: No such file or directory (ENOENT); "
        + "there is no GPIO chip \(Self.missingChip)")
  }

  @Test func aChipWithoutAFolderIsTakenFromTheDeviceFolder() throws {
    let folder = try TemporaryFolder()
    let backend = LibgpiodBackend(deviceDirectory: folder.path)
    let error = try thrownError(GPIOError.self) {
      try backend.request(
        [(.offset(chip: "gpiochip7", offset: 1), .output())], consumer: "scoreboardd-test")
    }
    #expect(
      error
        == GPIOError(
          operation: "request", line: "gpiochip7:1", errno: .noSuchFileOrDirectory,
          hint: "there is no GPIO chip \(folder.path)/gpiochip7"))
  }

  @Test(arguments: [-1, 1 << 40])
  func requestingAnOffsetNoChipCanHaveFailsCleanly(offset: Int) throws {
    let error = try thrownError(GPIOError.self) {
      try LibgpiodBackend().request(
        [(.offset(chip: Self.missingChip, offset: offset), .input())], consumer: "scoreboardd-test")
    }
    #expect(error.operation == "request")
    #expect(error.line == "\(Self.missingChip):\(offset)")
    #expect(error.errno == .invalidArgument)
  }

  @Test func requestingALargeOffsetOfAMissingChipFailsOnTheChip() throws {
    let error = try thrownError(GPIOError.self) {
      try LibgpiodBackend().request(
        [(.offset(chip: Self.missingChip, offset: 100_000), .input())],
        consumer: "scoreboardd-test")
    }
    #expect(error.operation == "request")
    #expect(error.errno == .noSuchFileOrDirectory)
  }

  @Test func aLineListedTwiceIsBusy() throws {
    let error = try thrownError(GPIOError.self) {
      try LibgpiodBackend().request(
        [
          (.offset(chip: Self.missingChip, offset: 4), .output()),
          (.offset(chip: Self.missingChip, offset: 5), .output()),
          (.offset(chip: Self.missingChip, offset: 4), .input()),
        ], consumer: "scoreboardd-test")
    }
    #expect(error == GPIOError(operation: "request", line: "\(Self.missingChip):4", errno: .busy))
  }

  /// The error of a request, on a chip that does not exist, for an output and an input
  /// with a debounce period of 5 ms.
  static func requestWithKernelDebounce() throws -> GPIOError {
    try thrownError(GPIOError.self) {
      try LibgpiodBackend().request(
        [
          (.offset(chip: Self.missingChip, offset: 1), .output()),
          (.offset(chip: Self.missingChip, offset: 2), .input(debounce: 5_000_000)),
        ], consumer: "scoreboardd-test")
    }
  }

  @Test(.enabled(if: GPIOLibrary.apiGeneration == 1, "this build has libgpiod's v2 API"))
  func kernelDebounceNeedsLibgpiodVersion2() throws {
    #expect(!LibgpiodBackend().supportsKernelDebounce)
    let error = try Self.requestWithKernelDebounce()
    #expect(error.line == "\(Self.missingChip):2")
    #expect(error.errno == .notSupported)
    #expect(
      error.description
        == "request \(Self.missingChip):2: Operation not supported (EOPNOTSUPP); "
        + "\(GPIOLibrary.description) cannot debounce in the kernel; debounce in user space")
  }

  @Test(.enabled(if: GPIOLibrary.apiGeneration == 2, "this build has libgpiod's v1 API"))
  func libgpiodVersion2AcceptsKernelDebounce() throws {
    #expect(LibgpiodBackend().supportsKernelDebounce)
    // The settings are accepted: the request fails only on the missing chip.
    let error = try Self.requestWithKernelDebounce()
    #expect(error.errno == .noSuchFileOrDirectory)
  }
}
