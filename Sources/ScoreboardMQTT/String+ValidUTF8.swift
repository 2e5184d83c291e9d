extension String {
  /// The text of `bytes` when they are valid UTF-8; nil otherwise.
  public init?(validatingUTF8Bytes bytes: [UInt8]) {
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    var scalars = String.UnicodeScalarView()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): scalars.append(scalar)
      case .emptyInput:
        self = String(scalars)
        return
      case .error: return nil
      }
    }
  }
}
