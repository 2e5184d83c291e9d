import LinuxIO
import ScoreboardCore

/// What a display or keypad waits for: a descriptor to become ready, a moment, both or
/// neither.
public struct DeviceWait: Equatable, Sendable {
  /// The descriptor to watch. Hang-ups and errors are reported even when `events`
  /// is empty.
  public var descriptor: FileDescriptor?
  public var events: PollLoop.Events
  /// When the device wants to be called back although nothing is ready.
  public var deadline: Instant?

  public init(
    descriptor: FileDescriptor? = nil, events: PollLoop.Events = [], deadline: Instant? = nil
  ) {
    self.descriptor = descriptor
    self.events = events
    self.deadline = deadline
  }

  /// Waiting for nothing.
  public static let nothing = DeviceWait()
}
