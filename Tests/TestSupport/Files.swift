@preconcurrency import Glibc

/// The contents of the file at `path`, or nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
  guard let stream = fopen(path, "r") else { return nil }
  defer { fclose(stream) }
  var contents: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&chunk, 1, chunk.count, stream)
    guard count > 0 else { break }
    contents += chunk[..<count]
  }
  return String(decoding: contents, as: UTF8.self)
}

/// The names in the folder at `path` but `.` and `..`, sorted; none when it cannot be
/// read.
public func fileNames(in path: String) -> [String] {
  guard let directory = opendir(path) else { return [] }
  defer { closedir(directory) }
  var names: [String] = []
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != "." && name != ".." {
      names.append(name)
    }
  }
  return names.sorted()
}
