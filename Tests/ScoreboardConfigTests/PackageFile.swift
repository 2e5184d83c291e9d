import Glibc
import Testing

/// Files of this package, found from this source file's path.
enum PackageFile {
  /// The package's directory.
  static let root: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/ScoreboardConfigTests/PackageFile.swift
    return components.joined(separator: "/")
  }()

  /// The whole text of the file at `relativePath` in the package (`Config/demo.conf`).
  static func contents(of relativePath: String) throws -> String {
    let path = root + "/" + relativePath
    let file = try #require(fopen(path, "r"), "cannot open \(path)")
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
