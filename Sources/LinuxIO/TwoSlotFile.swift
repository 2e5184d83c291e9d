@preconcurrency import Glibc

/// A small file rewritten often and kept durable by writing it in place, such as the
/// daemon's state file.
///
/// The file has two slots of one size, a whole number of 4 KiB blocks each. A slot
/// holds a whole version of the contents after a line that numbers the version and
/// gives its length and checksum (FNV-1a, 64 bits), and newlines fill the rest:
///
///     slot 42 380 5c1e9a0b7d3f2e61
///     (the 380 bytes of the contents)
///
/// A write puts the next version in the other slot than the newest one, in place
/// (`pwrite`), and flushes it (`fdatasync`). The file keeps its inode, size and blocks,
/// so the file system changes nothing of its own, and the flush writes those blocks
/// and nothing else: no new inode, no rename and no folder to flush. A power cut in the
/// middle of a write damages at most the slot being written, whose checksum then fails,
/// and the other slot still holds the version before. A reader takes the whole slot
/// with the highest number.
///
/// The file is made anew, whole, with `AtomicFile.write` (a temporary file renamed
/// over it): by the first write, when the contents outgrow a slot, and whenever what is
/// at the path is not the file this object made or read last (removed, replaced, or
/// one of the contents alone, which `read` accepts as it is).
///
/// One thread at a time uses an instance: the daemon's store hands it to its writing
/// thread for a write and takes it back when the write has ended.
public final class TwoSlotFile: @unchecked Sendable {
  /// Neither slot of the file holds a whole version: each one's length or checksum is
  /// wrong, or the file is not made of two slots.
  public struct Damaged: Error, CustomStringConvertible {
    public var path: String

    /// What is wrong, without the path.
    public var reason: String {
      "neither of its two copies is whole (a length or a checksum does not match)"
    }

    public var description: String {
      "\(path): \(reason)"
    }
  }

  /// The unit slots are made of: a write never shares a block with the other slot.
  static let blockSize = 4096
  /// What each slot's first line begins with.
  static let magic = Array("slot ".utf8)
  /// The longest first line a slot may have, its newline included.
  static let longestHeader = 64

  /// The file.
  public let path: String
  /// Where the next write goes; nil when it makes the file anew.
  private var layout: Layout?

  private struct Layout {
    /// The file that was made or read: writing in place is only for it.
    var identity: FileIdentity
    var slotSize: Int
    /// The slot the next version goes to: the one not holding the newest.
    var nextSlot: Int
    /// The newest version's number.
    var sequence: UInt64
  }

  /// The file at `path`; nothing is touched yet.
  public init(path: String) {
    self.path = path
  }

  // MARK: - Reading

  /// The newest whole version of the contents; nil when there is no file at `path`
  /// (`ENOENT`, which includes a missing folder). A file of the contents alone, not
  /// made of slots, is returned as it is. A symbolic link is not followed.
  ///
  /// - Parameter limit: The largest contents accepted; larger ones are refused with
  ///   `EFBIG`.
  /// - Throws: `Damaged` when no slot is whole; `NotARegularFile` when `path` names a
  ///   FIFO, a folder, a device, a socket or a link; `IOError` naming the call that
  ///   failed and `path`.
  public func read(limit: Int) throws -> [UInt8]? {
    layout = nil
    let bytes: [UInt8]
    let status: FileStatus
    do {
      (bytes, status) = try FileDescriptor.readRegularFileAndStatus(
        path, limit: 2 * Self.slotSize(for: limit + Self.longestHeader), followingLinks: false)
    } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
      return nil
    }
    guard Self.isMadeOfSlots(bytes) else {
      guard bytes.count <= limit else {
        throw IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG))
      }
      return bytes
    }
    guard let newest = Self.newestVersion(in: bytes) else {
      throw Damaged(path: path)
    }
    guard newest.contents.count <= limit else {
      throw IOError(operation: "read", path: path, errno: Errno(rawValue: EFBIG))
    }
    layout = Layout(
      identity: status.identity, slotSize: bytes.count / 2, nextSlot: 1 - newest.slot,
      sequence: newest.sequence)
    return Array(newest.contents)
  }

  /// One whole version found in a slot.
  struct Version {
    var contents: ArraySlice<UInt8>
    var slot: Int
    var sequence: UInt64
  }

  /// Whether `bytes` are a file of slots, whole or damaged, rather than contents alone:
  /// its first slot begins as one, or it has the size of two slots and its second does.
  static func isMadeOfSlots(_ bytes: [UInt8]) -> Bool {
    if bytes.starts(with: magic) { return true }
    guard bytes.count >= 2 * blockSize, bytes.count % (2 * blockSize) == 0 else { return false }
    return bytes[(bytes.count / 2)...].starts(with: magic)
  }

  /// The whole version with the highest number in the two slots of `bytes`; nil when
  /// there is none.
  static func newestVersion(in bytes: [UInt8]) -> Version? {
    guard bytes.count >= 2 * blockSize, bytes.count % (2 * blockSize) == 0 else { return nil }
    let slotSize = bytes.count / 2
    var newest: Version?
    for slot in 0..<2 {
      let start = slot * slotSize
      guard let found = wholeVersion(in: bytes[start..<(start + slotSize)]) else { continue }
      if newest.map({ found.sequence > $0.sequence }) ?? true {
        newest = Version(contents: found.contents, slot: slot, sequence: found.sequence)
      }
    }
    return newest
  }

  /// The number and contents of the version in `slot` when its first line is
  /// `slot SEQUENCE LENGTH CHECKSUM` and the contents after it have that length and
  /// checksum; nil otherwise.
  private static func wholeVersion(
    in slot: ArraySlice<UInt8>
  ) -> (sequence: UInt64, contents: ArraySlice<UInt8>)? {
    let newline = UInt8(ascii: "\n")
    guard let end = slot.prefix(longestHeader).firstIndex(of: newline) else { return nil }
    let words = slot[slot.startIndex..<end].split(
      separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard words.count == 4, words[0].elementsEqual(magic.dropLast()),
      let sequence = decimal(words[1]), let length = decimal(words[2]),
      let checksum = hexadecimal(words[3]), length <= UInt64(slot.endIndex - end - 1)
    else { return nil }
    let contents = slot[(end + 1)..<(end + 1 + Int(length))]
    guard checksum == fnv1a(contents) else { return nil }
    return (sequence, contents)
  }

  /// The number written in ASCII digits alone (no sign), up to `UInt64.max`.
  private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
    guard !digits.isEmpty, digits.count <= 20 else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = tens.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }

  /// The number written in exactly 16 lowercase hexadecimal digits.
  private static func hexadecimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
    guard digits.count == 16 else { return nil }
    var value: UInt64 = 0
    for digit in digits {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(digit - 48)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(digit - 87)
      default: return nil
      }
    }
    return value
  }

  /// FNV-1a, 64 bits: enough to tell a slot written whole from one a power cut left
  /// half written.
  static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  // MARK: - Writing

  /// Makes `contents` the newest version, durably: in place in the slot not holding the
  /// newest version, or in a file made anew (see the type's description). When a write
  /// in place fails, the slot it was writing may be damaged; the newest version is
  /// whole, and the next write goes to the same slot.
  ///
  /// - Throws: `IOError` naming the call that failed and its path.
  public func write(_ contents: [UInt8]) throws {
    if layout?.sequence == .max {
      // No higher number is left for the other slot: a new file starts again at 1.
      layout = nil
    }
    let sequence = (layout?.sequence ?? 0) + 1
    let version = Self.slot(holding: contents, sequence: sequence)
    if var layout, version.count <= layout.slotSize,
      try writeInPlace(version, at: layout.nextSlot * layout.slotSize, layout: layout)
    {
      layout.nextSlot = 1 - layout.nextSlot
      layout.sequence = sequence
      self.layout = layout
      return
    }
    let slotSize = Self.slotSize(for: version.count)
    var file = version
    file.reserveCapacity(2 * slotSize)
    file += repeatElement(UInt8(ascii: "\n"), count: 2 * slotSize - version.count)
    layout = nil
    try AtomicFile.write(file, to: path)
    if let made = try? FileStatus.ofEntry(at: path) {
      layout = Layout(
        identity: made.identity, slotSize: slotSize, nextSlot: 1, sequence: sequence)
    }
  }

  /// Writes `version` over the slot at `offset` and flushes it, when the file at the
  /// path is still the one `layout` describes.
  ///
  /// - Returns: false, having written nothing, when it is not.
  private func writeInPlace(_ version: [UInt8], at offset: Int, layout: Layout) throws -> Bool {
    func isTheFile(_ status: FileStatus) -> Bool {
      status.kind == .regular && status.identity == layout.identity
        && status.size == Int64(2 * layout.slotSize)
    }
    do {
      guard isTheFile(try FileStatus.ofEntry(at: path)) else { return false }
    } catch let error as IOError where error.errno == .noSuchFileOrDirectory {
      return false
    }
    let file = try FileDescriptor.open(
      path, .writeOnly, options: [.closeOnExec, .noFollow, .nonBlocking, .noControllingTerminal])
    do {
      guard isTheFile(try file.status()) else {
        try file.close()
        return false
      }
      var slot = version
      slot += repeatElement(UInt8(ascii: "\n"), count: layout.slotSize - version.count)
      try slot.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
          written += try retryOnInterrupt("pwrite", path: path) {
            SystemCall.pwrite(
              file.rawValue, buffer.baseAddress! + written, buffer.count - written,
              off_t(offset + written))
          }
        }
      }
      _ = try retryOnInterrupt("fdatasync", path: path) { SystemCall.fdatasync(file.rawValue) }
    } catch var error as IOError {
      try? file.close()
      error.path = path
      throw error
    }
    do {
      try file.close()
    } catch var error as IOError {
      error.path = path
      throw error
    }
    return true
  }

  /// The first line and `contents`, without the slot's filling.
  static func slot(holding contents: [UInt8], sequence: UInt64) -> [UInt8] {
    var slot = magic
    slot.reserveCapacity(longestHeader + contents.count)
    appendDecimal(sequence, to: &slot)
    slot.append(UInt8(ascii: " "))
    appendDecimal(UInt64(contents.count), to: &slot)
    slot.append(UInt8(ascii: " "))
    let checksum = fnv1a(contents)
    for shift in stride(from: 60, through: 0, by: -4) {
      slot.append(hexDigits[Int(truncatingIfNeeded: checksum >> UInt64(shift)) & 0xF])
    }
    slot.append(UInt8(ascii: "\n"))
    slot += contents
    return slot
  }

  /// The digits of a checksum, lowercase.
  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `number` in decimal.
  private static func appendDecimal(_ number: UInt64, to bytes: inout [UInt8]) {
    let start = bytes.count
    var rest = number
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    bytes[start...].reverse()
  }

  /// The size of a slot made for a version of `count` bytes: half as much again, for
  /// the contents to grow before the file is made anew, in whole blocks.
  static func slotSize(for count: Int) -> Int {
    let room = count + count / 2
    return max(1, (room + blockSize - 1) / blockSize) * blockSize
  }
}
