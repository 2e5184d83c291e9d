@preconcurrency import Glibc

/// A random number generator that replays: SplitMix64 from a seed, which tests print so
/// that a failure can be run again with `SCOREBOARDD_TEST_SEED=N`.
public struct SeededRandom: RandomNumberGenerator {
  /// The seed this generator started from.
  public let seed: UInt64
  private var state: UInt64

  /// A generator from `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    state = seed
  }

  /// A generator from `SCOREBOARDD_TEST_SEED` when it is set, else from a fresh seed;
  /// prints the seed with `name`.
  public static func forTest(_ name: String) -> SeededRandom {
    let seed: UInt64
    if let text = getenv("SCOREBOARDD_TEST_SEED"), let value = UInt64(String(cString: text)) {
      seed = value
    } else {
      var system = SystemRandomNumberGenerator()
      seed = system.next()
    }
    print("\(name): seed \(seed) (replay with SCOREBOARDD_TEST_SEED=\(seed))")
    return SeededRandom(seed: seed)
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
