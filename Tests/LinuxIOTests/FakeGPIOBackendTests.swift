import LinuxIO
import TestSupport
import Testing

@Suite struct FakeGPIOBackendTests {
  @Test func playsLibgpiodVersion1WithoutKernelDebounce() throws {
    let backend = FakeGPIOBackend()
    backend.supportsKernelDebounce = false
    #expect(throws: GPIOError(operation: "request", line: "GPIO6", errno: .notSupported)) {
      try backend.request(
        [(.name("GPIO5"), .output()), (.name("GPIO6"), .input(debounce: 5_000_000))],
        consumer: "test")
    }
    #expect(backend.requests.isEmpty)
    _ = try backend.request([(.name("GPIO6"), .input())], consumer: "test")
    #expect(backend.requests.count == 1)
  }

  @Test func acceptsKernelDebounceByDefault() throws {
    let backend = FakeGPIOBackend()
    #expect(backend.supportsKernelDebounce)
    _ = try backend.request([(.name("GPIO6"), .input(debounce: 5_000_000))], consumer: "test")
    #expect(backend.requests.count == 1)
  }
}
