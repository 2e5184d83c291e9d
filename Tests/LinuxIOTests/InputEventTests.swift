import CScoreboardLinux
@preconcurrency import Glibc
import LinuxIO
import Testing

/// The `struct input_event` records of the C shim.
@Suite struct InputEventTests {
  @Test func recordSizeIsTheCStructs() {
    // Two longs of time, then type, code and value: 24 bytes on 64-bit, 16 on 32-bit.
    #expect(InputEvent.recordSize == sbl_input_event_size())
    #expect(InputEvent.recordSize == 2 * MemoryLayout<CLong>.size + 8)
    #if arch(x86_64) || arch(arm64)
      #expect(InputEvent.recordSize == 24)
    #elseif arch(arm) || arch(i386)
      #expect(InputEvent.recordSize == 16)
    #endif
  }

  @Test func recordsHaveTheKernelsLayout() {
    let event = InputEvent(
      timestamp: 1_700_000_123_456_789_000, type: .key, code: 79, value: 1)
    var expected: [UInt8] = []
    withUnsafeBytes(of: CLong(1_700_000_123)) { expected += $0 }
    withUnsafeBytes(of: CLong(456_789)) { expected += $0 }
    withUnsafeBytes(of: UInt16(EV_KEY)) { expected += $0 }
    withUnsafeBytes(of: UInt16(79)) { expected += $0 }
    withUnsafeBytes(of: Int32(1)) { expected += $0 }
    #expect(InputEvent.records([event]) == expected)
  }

  @Test func recordsDecodeToTheirEvents() {
    let events = [
      InputEvent(timestamp: 5_000_250_000, type: .key, code: 82, value: 2),
      InputEvent(
        timestamp: 5_000_251_000, type: .synchronization, code: InputEvent.report, value: 0),
      InputEvent(timestamp: 6_000_000_000, type: .led, code: InputEvent.numLockLED, value: -1),
    ]
    let decoded = InputEvent.records(events).withUnsafeBytes { bytes in
      (0..<3).map { InputEvent(record: bytes.baseAddress! + $0 * InputEvent.recordSize) }
    }
    #expect(decoded == events)
  }

  @Test func constantsAreTheKernels() {
    #expect(InputEvent.EventType.synchronization.rawValue == 0)
    #expect(InputEvent.EventType.key.rawValue == 1)
    #expect(InputEvent.EventType.led.rawValue == 0x11)
    #expect(InputEvent.report == 0)
    #expect(InputEvent.dropped == 3)
    #expect(InputEvent.numLockLED == 0)
  }
}

/// Records whose timestamps no kernel writes, as a FIFO or a broken device may carry.
@Suite struct HostileInputEventTests {
  /// One record of the C layout with the given time fields.
  static func record(seconds: CLong, microseconds: CLong) -> [UInt8] {
    var bytes: [UInt8] = []
    withUnsafeBytes(of: seconds) { bytes += $0 }
    withUnsafeBytes(of: microseconds) { bytes += $0 }
    withUnsafeBytes(of: UInt16(EV_KEY)) { bytes += $0 }
    withUnsafeBytes(of: UInt16(30)) { bytes += $0 }
    withUnsafeBytes(of: Int32(1)) { bytes += $0 }
    return bytes
  }

  static let extremes: [(seconds: CLong, microseconds: CLong)] = [
    (CLong.max, 0), (CLong.min, 0), (CLong.max, CLong.max), (CLong.min, CLong.min),
    (0, CLong.max), (0, CLong.min), (CLong(Int32.max), 999_999), (-1, -999_999),
  ]

  @Test(arguments: 0..<8)
  func extremeTimesSaturateInsteadOfTrapping(index: Int) {
    let (seconds, microseconds) = Self.extremes[index]
    let event = Self.record(seconds: seconds, microseconds: microseconds).withUnsafeBytes {
      InputEvent(record: $0.baseAddress!)
    }
    let exact = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    if exact.overflow {
      #expect(event.timestamp == (seconds < 0 ? Int64.min : Int64.max))
    }
    #expect(event.type == .key)
    #expect(event.code == 30)
  }

  @Test func tenBillionSecondsSaturatesOn64Bit() {
    // struct.pack('llHHi', 10**10, 0, 0, 0, 0): the record that stopped the daemon.
    let seconds = CLong(truncatingIfNeeded: 10_000_000_000 as Int64)
    let event = Self.record(seconds: seconds, microseconds: 0).withUnsafeBytes {
      InputEvent(record: $0.baseAddress!)
    }
    let product = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    #expect(event.timestamp == (product.overflow ? Int64.max : product.partialValue))
  }

  @Test func microsecondsOutsideASecondAreClamped() {
    let event = Self.record(seconds: 5, microseconds: 5_000_000).withUnsafeBytes {
      InputEvent(record: $0.baseAddress!)
    }
    #expect(event.timestamp == 5_999_999_000)
  }
}
