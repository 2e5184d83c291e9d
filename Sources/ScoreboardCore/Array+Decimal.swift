extension [UInt8] {
  /// Appends `value` in decimal, with a `-` when negative, without making a string of it:
  /// for the texts written at every change (the state file, the MQTT state document).
  public mutating func appendDecimal(_ value: Int64) {
    // The digits from the last, into the end of 24 bytes (an Int64 has at most 20 with
    // its sign).
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    Swift.withUnsafeMutableBytes(of: &digits) { buffer in
      var rest = value.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
  }
}
