import CScoreboardLinux
@preconcurrency import Glibc
import ScoreboardSettings

/// Requests GPIO lines from the kernel through libgpiod, v1 or v2 (see `GPIOLibrary`).
///
/// The backend holds no line itself: each request it returns owns its lines until it is
/// released or deinitialised. Lines named in a request are found on any chip; a chip
/// given without a folder (`gpiochip0`) is taken from `deviceDirectory`. A request whose
/// lines live on several chips holds one libgpiod request per chip.
public final class LibgpiodBackend: GPIOBackend {
  /// The folder of the GPIO chips (`gpiochipN`): searched for lines given by name, and
  /// where chips given without a folder are.
  public let deviceDirectory: String

  /// A backend that looks named lines up on the chips in `deviceDirectory`.
  public init(deviceDirectory: String = "/dev") {
    self.deviceDirectory = deviceDirectory
  }

  /// True with libgpiod v2; with v1 inputs are debounced in user space.
  public var supportsKernelDebounce: Bool {
    GPIOLibrary.apiGeneration >= 2
  }

  /// Finds the line called `name` (`GPIO17`) on the chips, in chip order.
  ///
  /// - Returns: The path of the first chip that has such a line, and the line's offset.
  /// - Throws: `GPIOError` naming `find` and `name`: `ENOENT` when no chip has the line, or
  ///   the error of a chip that could not be searched (`EACCES`).
  public func find(_ name: String) throws -> (chip: String, offset: Int) {
    var offset: CUnsignedInt = 0
    let found: Result<String, Errno> = withUnsafeTemporaryAllocation(
      of: CChar.self, capacity: Int(PATH_MAX)
    ) { buffer in
      guard
        sbl_gpio_find_line(deviceDirectory, name, buffer.baseAddress, buffer.count, &offset)
          == 0
      else {
        return .failure(.current)
      }
      return .success(String(cString: buffer.baseAddress!))
    }
    switch found {
    case .success(let chip):
      return (chip, Int(offset))
    case .failure(let errno):
      let hint = errno == .noSuchFileOrDirectory ? "no GPIO line is named \(name)" : nil
      throw GPIOError(operation: "find", line: name, errno: errno, hint: hint)
    }
  }

  /// Requests `lines` for `consumer`; line `i` of the result is `lines[i]`. Outputs drive
  /// their initial values until set, reconfigured or released.
  ///
  /// - Throws: `GPIOError` naming the line as written and the operation: `find` for a
  ///   name no chip has, `request` when the kernel refuses a line (`EBUSY` when it is in
  ///   use, `ENOTSUP` for a debounce period with libgpiod v1).
  public func request(
    _ lines: [(address: GPIOLine, settings: GPIOLineSettings)], consumer: String
  ) throws -> any GPIOLines {
    let located = try lines.map { line in
      let name = line.address.description
      switch line.address {
      case .name(let lineName):
        let (chip, offset) = try find(lineName)
        return LibgpiodLines.Line(
          name: name, chip: chip, offset: CUnsignedInt(offset), settings: line.settings)
      case .offset(let chip, let offset):
        guard let offset = CUnsignedInt(exactly: offset) else {
          throw GPIOError(operation: "request", line: name, errno: .invalidArgument)
        }
        let path = chip.contains("/") ? chip : "\(deviceDirectory)/\(chip)"
        return LibgpiodLines.Line(name: name, chip: path, offset: offset, settings: line.settings)
      }
    }
    return try LibgpiodLines(located, consumer: consumer)
  }
}
