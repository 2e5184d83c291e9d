import LinuxIO
import Testing

@Suite struct GPIOErrorTests {
  @Test func busyLineSaysSomeoneElseHasIt() {
    let error = GPIOError(operation: "request", line: "GPIO17", errno: .busy)
    #expect(
      error.description
        == "request GPIO17: Device or resource busy (EBUSY) "
        + "(another program or another section uses this line)")
  }

  @Test func explicitHintReplacesTheErrnoHint() {
    let error = GPIOError(
      operation: "find", line: "GPIO99", errno: .noSuchFileOrDirectory,
      hint: "no GPIO line is named GPIO99")
    #expect(
      error.description
        == "find GPIO99: No such file or directory (ENOENT); no GPIO line is named GPIO99")
  }

  @Test func errorWithoutALineNamesTheOperation() {
    let error = GPIOError(operation: "read events", line: nil, errno: .ioError)
    #expect(error.description == "read events: Input/output error (EIO)")
  }
}
