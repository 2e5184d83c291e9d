import LinuxIO
import TestSupport

/// A key matrix without diodes as the hardware behaves: a closed key connects its row
/// to its column, and a column reads active (low) when a path of closed keys leads from
/// it to a driven row. Three keys on a rectangle therefore make the fourth corner read
/// closed too (ghosting).
///
/// The lines are those of `GPIOMatrixKeypad`: the rows first, then the columns, all
/// active low (a driven row and an active column are `true`).
final class KeyMatrix {
  let rows: Int
  let columns: Int
  /// The closed keys, row-major.
  var closed: Set<Int> = []
  /// For each column read, which rows were driven at that moment.
  private(set) var drivenRowsAtReads: [[Int]] = []

  init(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
  }

  /// The level of column line `line` (an index of the request), for `inputModel`.
  func level(of line: Int, in lines: FakeGPIOLines) -> Bool {
    let driven = (0..<rows).filter { lines.values[$0] }
    drivenRowsAtReads.append(driven)
    // Walk from the column through closed keys, alternating columns and rows.
    var reachedColumns: Set<Int> = [line - rows]
    var reachedRows: Set<Int> = []
    var changed = true
    while changed {
      changed = false
      for key in closed {
        let (row, column) = (key / columns, key % columns)
        if reachedRows.contains(row) != reachedColumns.contains(column) {
          reachedRows.insert(row)
          reachedColumns.insert(column)
          changed = true
        }
      }
    }
    return !reachedRows.isDisjoint(with: driven)
  }

  /// Forgets the reads recorded so far.
  func clearReads() {
    drivenRowsAtReads = []
  }
}
