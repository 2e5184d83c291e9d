@preconcurrency import Glibc

extension FileDescriptor {
  /// Reads what is available, up to `buffer.count` bytes, waiting for data unless the
  /// descriptor is non-blocking.
  ///
  /// - Returns: The number of bytes read; 0 at the end of the file, or when the writer
  ///   of a pipe closed it.
  /// - Throws: `IOError` naming `read`; its errno is `.wouldBlock` when a non-blocking
  ///   descriptor has nothing to read.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    try retryOnInterrupt("read") { SystemCall.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Writes up to `buffer.count` bytes and returns how many were written, which may be
  /// fewer (serial ports, pipes and non-blocking descriptors do partial writes).
  ///
  /// - Throws: `IOError` naming `write`; its errno is `.wouldBlock` when a non-blocking
  ///   descriptor cannot take any byte now.
  public func write(_ buffer: UnsafeRawBufferPointer) throws -> Int {
    try retryOnInterrupt("write") { SystemCall.write(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Writes all of `bytes`, continuing after partial writes.
  ///
  /// - Throws: `IOError` naming `write`. Its errno is `.wouldBlock` when a non-blocking
  ///   descriptor fills up; the bytes before that point have been written. Callers that
  ///   must resume where a write stopped use `write(_:)`.
  public func writeAll(_ bytes: some Sequence<UInt8>) throws {
    let wroteContiguousBytes: Void? = try bytes.withContiguousStorageIfAvailable { buffer in
      try writeAll(UnsafeRawBufferPointer(buffer))
    }
    if wroteContiguousBytes == nil {
      try Array(bytes).withUnsafeBytes { try writeAll($0) }
    }
  }

  /// Writes all of `text` as UTF-8, continuing after partial writes.
  ///
  /// - Throws: `IOError` naming `write`, as `writeAll(_:)` on bytes does.
  public func writeAll(_ text: String) throws {
    var text = text
    try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0)) }
  }

  private func writeAll(_ buffer: UnsafeRawBufferPointer) throws {
    var remaining = buffer
    while !remaining.isEmpty {
      let written = try write(remaining)
      remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
    }
  }
}
