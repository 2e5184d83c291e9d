@preconcurrency import Glibc
import LinuxIO
import TestExpectations
import Testing

@Suite struct ErrnoTests {
  @Test(arguments: [
    (ENOENT, "No such file or directory (ENOENT)"),
    (EAGAIN, "Resource temporarily unavailable (EAGAIN)"),
    (EACCES, "Permission denied (EACCES)"),
    (EIO, "Input/output error (EIO)"),
    (ENOTTY, "Inappropriate ioctl for device (ENOTTY)"),
    (9999, "Unknown error 9999 (errno 9999)"),
  ])
  func description(errorNumber: CInt, expected: String) {
    #expect(Errno(rawValue: errorNumber).description == expected)
  }

  @Test func ioErrorNamesOperationAndPath() {
    let withPath = IOError(operation: "open", path: "/dev/ttyUSB0", errno: .noSuchFileOrDirectory)
    #expect(withPath.description == "open /dev/ttyUSB0: No such file or directory (ENOENT)")
    let withoutPath = IOError(operation: "poll", errno: .interrupted)
    #expect(withoutPath.description == "poll: Interrupted system call (EINTR)")
  }

  @Test func openOfMissingFileThrowsWithPath() throws {
    let error = expectError(IOError.self) {
      try FileDescriptor.open("/nonexistent/scoreboard", .readOnly)
    }
    #expect(error?.errno == .noSuchFileOrDirectory)
    #expect(
      error?.description == "open /nonexistent/scoreboard: No such file or directory (ENOENT)")
  }
}
