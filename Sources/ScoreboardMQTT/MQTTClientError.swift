/// Why an MQTT client could not be made or started.
public struct MQTTClientError: Error, Hashable, Sendable, CustomStringConvertible {
  public let description: String

  /// An error that says `description`.
  public init(_ description: String) {
    self.description = description
  }
}
