import Glibc
import LinuxIO
import Testing

@Suite struct ProcessorTests {
  @Test func theCurrentProcessorIsOneOfTheMachines() throws {
    let configured = sysconf(Int32(_SC_NPROCESSORS_CONF))
    let processor = try #require(Processor.current())
    #expect((0..<configured).contains(processor))
  }
}
