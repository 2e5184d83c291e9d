import ScoreboardCore

extension Instant {
  /// The instant `seconds` after the origin.
  static func seconds(_ seconds: Int64) -> Instant {
    .milliseconds(seconds * 1000)
  }
}
