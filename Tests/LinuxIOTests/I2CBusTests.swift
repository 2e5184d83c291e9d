import LinuxIO
import TestExpectations
import TestSupport
import Testing

/// i2c-dev errors as the user reads them, and the kernel backend on what is not a bus.
/// (Transfers on a real bus are shown by the virtual-machine tests on i2c-stub.)
@Suite struct I2CBusTests {
  @Test(arguments: [Errno.remoteIO, .noSuchDeviceOrAddress])
  func aChipThatDoesNotAnswerIsNamedWithAdvice(errno: Errno) {
    let error = I2CError(operation: "write", bus: "/dev/i2c-1", address: 0x70, errno: errno)
    #expect(error.isNoAnswer)
    #expect(
      error.description
        == "no answer at 0x70 on /dev/i2c-1 (\(errno.name!)): check the chip's power, its SDA "
        + "and SCL wires and its address jumpers; i2cdetect -y 1 lists the chips that answer")
  }

  @Test func aMissingBusSaysHowToEnableI2C() {
    let error = I2CError(operation: "open", bus: "/dev/i2c-1", errno: .noSuchFileOrDirectory)
    #expect(!error.isNoAnswer)
    #expect(error.description.hasPrefix("open /dev/i2c-1: No such file or directory (ENOENT);"))
    #expect(error.description.contains("dtparam=i2c_arm=on"))
  }

  @Test func aBusTheUserMayNotOpenNamesTheGroup() {
    let error = I2CError(operation: "open", bus: "/dev/i2c-1", errno: .permissionDenied)
    #expect(
      error.description
        == "open /dev/i2c-1: Permission denied (EACCES); "
        + "the user running scoreboardd needs to be in the 'i2c' group")
  }

  @Test func anAddressAKernelDriverHoldsSaysSo() {
    let error = I2CError(operation: "address", bus: "/dev/i2c-1", address: 0x07, errno: .busy)
    #expect(error.description.hasPrefix("address 0x07 on /dev/i2c-1: Device or resource busy"))
    #expect(error.description.contains("a kernel driver holds that address"))
  }

  @Test func theKernelBackendReportsAMissingBus() throws {
    let folder = try TemporaryFolder()
    let error = expectError(I2CError.self) {
      _ = try KernelI2CBackend().openBus("\(folder.path)/i2c-9")
    }
    #expect(error?.operation == "open")
    #expect(error?.errno == .noSuchFileOrDirectory)
  }

  @Test func theKernelBackendRefusesAFileThatIsNotABus() throws {
    let folder = try TemporaryFolder()
    let path = "\(folder.path)/not-a-bus"
    try AtomicFile.write([0], to: path)
    let error = expectError(I2CError.self) { _ = try KernelI2CBackend().openBus(path) }
    #expect(error?.operation == "check functions")
    #expect(error?.errno == .notTerminal, "a regular file takes no I2C_FUNCS")
  }
}
