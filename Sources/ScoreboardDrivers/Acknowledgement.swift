/// A device's answers to what was sent: `0x06 ADDRESS` (ACK) when it took the bytes,
/// `0x15 ADDRESS` (NAK) when it refused them, and how long to wait for them.
public struct Acknowledgement: Hashable, Sendable {
  /// An answer of the device.
  public enum Answer: Hashable, Sendable {
    /// ACK: the device took what was sent.
    case accepted
    /// NAK: the device refused what was sent (bad checksum or length); send it again.
    case rejected
  }

  /// The byte that starts an ACK (ASCII ACK).
  private static let acceptedMarker: UInt8 = 0x06
  /// The byte that starts a NAK (ASCII NAK).
  private static let rejectedMarker: UInt8 = 0x15

  /// How long to wait for an answer.
  public var timeout: Duration
  /// How many times to resend before the device counts as offline.
  public var retries: Int
  /// The device's address, which its answers carry.
  public var address: UInt8

  /// Answers from the device at `address`, awaited for `timeout`, with `retries` resends
  /// (zero or more) before the device counts as offline.
  public init(timeout: Duration, retries: Int, address: UInt8) {
    precondition(retries >= 0, "retries must not be negative")
    self.timeout = timeout
    self.retries = retries
    self.address = address
  }

  /// Finds the first answer for this address in `bytes`, which may hold noise, answers
  /// for other addresses, or a partial answer at the end.
  ///
  /// - Returns: The answer and how many bytes it and everything before it take, or nil
  ///   when no complete answer for this address is there yet. When nil, every byte but a
  ///   final ACK or NAK byte (the first half of an answer) is noise.
  public func scan(_ bytes: [UInt8]) -> (answer: Answer, consumed: Int)? {
    scan(bytes[...])
  }

  /// `scan(_:)` of a part of the bytes received; `consumed` counts from its start.
  public func scan(_ bytes: ArraySlice<UInt8>) -> (answer: Answer, consumed: Int)? {
    for index in bytes.indices {
      let answer: Answer
      switch bytes[index] {
      case Self.acceptedMarker: answer = .accepted
      case Self.rejectedMarker: answer = .rejected
      default: continue
      }
      let addressIndex = index + 1
      guard addressIndex < bytes.endIndex else { return nil }
      if bytes[addressIndex] == address {
        return (answer, addressIndex + 1 - bytes.startIndex)
      }
    }
    return nil
  }
}
