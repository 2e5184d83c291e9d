import LinuxIO
import ScoreboardSettings
import TestSupport

/// A `FakeGPIOBackend` whose requests get an input model as soon as they are made, so
/// the levels a driver reads while it starts (a button held, a key closed) come from
/// the test.
final class ModelledGPIOBackend: GPIOBackend {
  let fake = FakeGPIOBackend()
  var supportsKernelDebounce: Bool { fake.supportsKernelDebounce }
  /// Given to each request as its `inputModel`.
  var inputModel: ((_ line: Int, _ lines: FakeGPIOLines) -> Bool)?

  /// The requests made, in order.
  var requests: [FakeGPIOLines] { fake.requests }

  func request(
    _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
  ) throws -> any GPIOLines {
    let request = try fake.request(lines, consumer: consumer)
    (request as! FakeGPIOLines).inputModel = inputModel
    return request
  }
}
