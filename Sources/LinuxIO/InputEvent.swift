import CScoreboardLinux

/// One event of a Linux input device (evdev): a `struct input_event` record.
///
/// Records are decoded and encoded by the C shim from the kernel's definition of the
/// struct, whose size depends on the userland (`recordSize`: 24 bytes on 64-bit, 16 on
/// 32-bit Raspberry Pi OS).
public struct InputEvent: Hashable, Sendable {
  /// The kernel's timestamp in nanoseconds (microsecond precision): `CLOCK_REALTIME`
  /// unless the device was switched to `CLOCK_MONOTONIC` (`InputDevice.useMonotonicClock`).
  public var timestamp: Int64
  /// The kind of event (`EV_KEY`, `EV_SYN`, ...).
  public var type: EventType
  /// The key, LED or synchronization code, whose meaning depends on `type`.
  public var code: UInt16
  /// For `EV_KEY`: 1 press, 0 release, 2 autorepeat; for `EV_LED`: 1 on, 0 off.
  public var value: Int32

  /// An event of `type` with `code` and `value`, stamped `timestamp` nanoseconds.
  public init(timestamp: Int64 = 0, type: EventType, code: UInt16, value: Int32) {
    self.timestamp = timestamp
    self.type = type
    self.code = code
    self.value = value
  }

  /// The kind of an input event.
  public struct EventType: RawRepresentable, Hashable, Sendable {
    /// The C `EV_*` value.
    public let rawValue: UInt16

    /// Wraps an `EV_*` value.
    public init(rawValue: UInt16) {
      self.rawValue = rawValue
    }

    /// Synchronization: the end of a packet, or events lost. The corresponding C constant
    /// is `EV_SYN`.
    public static let synchronization = EventType(rawValue: UInt16(EV_SYN))
    /// A key or button. The corresponding C constant is `EV_KEY`.
    public static let key = EventType(rawValue: UInt16(EV_KEY))
    /// An LED, such as NumLock. The corresponding C constant is `EV_LED`.
    public static let led = EventType(rawValue: UInt16(EV_LED))
  }

  /// The code of the `.synchronization` event that ends a packet. The corresponding C
  /// constant is `SYN_REPORT`.
  public static let report = UInt16(SYN_REPORT)
  /// The code of the `.synchronization` event saying that the device's buffer overflowed
  /// and events were lost. The corresponding C constant is `SYN_DROPPED`.
  public static let dropped = UInt16(SYN_DROPPED)
  /// The NumLock LED, an `.led` code. The corresponding C constant is `LED_NUML`.
  public static let numLockLED = UInt16(LED_NUML)

  /// The size of one record in this userland: `sizeof(struct input_event)`.
  public static let recordSize = sbl_input_event_size()

  /// Decodes the record that starts at `record` (at least `recordSize` bytes).
  ///
  /// Any bytes decode: a timestamp outside what nanoseconds in an `Int64` can hold (a
  /// FIFO or a broken device may carry anything) saturates instead of overflowing.
  public init(record: UnsafeRawPointer) {
    var fields = sbl_input_event()
    sbl_input_event_decode(record, &fields)
    self.init(
      timestamp: Self.nanoseconds(seconds: fields.seconds, microseconds: fields.microseconds),
      type: EventType(rawValue: fields.type), code: fields.code, value: fields.value)
  }

  /// `seconds` and `microseconds` as nanoseconds, clamped to `Int64`'s range.
  static func nanoseconds(seconds: Int64, microseconds: Int64) -> Int64 {
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    // The kernel keeps microseconds below a million; anything else is clamped to that.
    let fraction = min(max(microseconds, -999_999), 999_999) * 1000
    let (sum, sumOverflow) = whole.addingReportingOverflow(fraction)
    guard !sumOverflow else { return fraction < 0 ? .min : .max }
    return sum
  }

  /// The records of `events`, one after the other, as a device delivers them (and takes
  /// them, for LEDs).
  public static func records(_ events: [InputEvent]) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: events.count * recordSize)
    bytes.withUnsafeMutableBytes { buffer in
      for (index, event) in events.enumerated() {
        var fields = sbl_input_event(
          seconds: event.timestamp / 1_000_000_000,
          microseconds: event.timestamp % 1_000_000_000 / 1000, type: event.type.rawValue,
          code: event.code, value: event.value)
        sbl_input_event_encode(&fields, buffer.baseAddress! + index * recordSize)
      }
    }
    return bytes
  }
}
