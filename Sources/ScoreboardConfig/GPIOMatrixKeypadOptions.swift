import ScoreboardCore
import ScoreboardSettings

/// The options of a keypad matrix (a membrane keypad) scanned on GPIO lines: a key
/// joins its row and its column (`driver = gpio-matrix`).
public struct GPIOMatrixKeypadOptions: Hashable, Sendable {
  /// The most rows, and the most columns, a matrix may have.
  public static let maximumLines = 8

  /// The row lines, top to bottom (`rows`), driven one at a time.
  public var rows: [GPIOLine]
  /// The column lines, left to right (`columns`), read with the Pi's pull-ups.
  public var columns: [GPIOLine]
  /// The key of each position, row by row (`keys`): `rows.count * columns.count` kernel
  /// key names, each once.
  public var keys: [Key]
  /// How long a key must stay pressed or released before it counts (`debounce`), 0 to 1s.
  public var debounce: Duration

  /// Creates GPIO matrix options.
  public init(
    rows: [GPIOLine], columns: [GPIOLine], keys: [Key], debounce: Duration = .milliseconds(20)
  ) {
    self.rows = rows
    self.columns = columns
    self.keys = keys
    self.debounce = debounce
  }
}
