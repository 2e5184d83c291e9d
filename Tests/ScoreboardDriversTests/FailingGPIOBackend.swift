import LinuxIO
import ScoreboardSettings
import TestSupport

/// A backend whose lines fail to read once `readsFail` is set, as the lines of a chip
/// that went away; otherwise they behave as `FakeGPIOLines` with the given input model.
final class FailingGPIOBackend: GPIOBackend {
  let modelled = ModelledGPIOBackend()
  var readsFail = false
  var supportsKernelDebounce: Bool { modelled.supportsKernelDebounce }

  func request(
    _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
  ) throws -> any GPIOLines {
    Lines(fake: try modelled.request(lines, consumer: consumer) as! FakeGPIOLines, backend: self)
  }

  private final class Lines: GPIOLines {
    let fake: FakeGPIOLines
    unowned let backend: FailingGPIOBackend

    init(fake: FakeGPIOLines, backend: FailingGPIOBackend) {
      self.fake = fake
      self.backend = backend
    }

    var count: Int { fake.count }
    var eventDescriptor: FileDescriptor? { fake.eventDescriptor }

    func set(_ line: Int, _ value: Bool) throws {
      try fake.set(line, value)
    }

    func get(_ line: Int) throws -> Bool {
      guard !backend.readsFail else {
        throw GPIOError(operation: "read", line: fake.addresses[line].description, errno: .ioError)
      }
      return try fake.get(line)
    }

    func reconfigure(_ line: Int, as settings: GPIOLineSettings) throws {
      try fake.reconfigure(line, as: settings)
    }

    func readEvents() throws -> [GPIOEdgeEvent] {
      try fake.readEvents()
    }

    func release() {
      fake.release()
    }
  }
}
