/// A minimal terminal emulator for tests: applies text and the ANSI escapes the terminal
/// display uses, and records what each screen position shows and in which colour.
///
/// It is written from the escapes' definitions (ECMA-48, xterm), not from the display's
/// code, so a test that decodes its screen checks what a real terminal would show.
struct TerminalScreen {
  struct Cell: Equatable {
    var character: Character
    /// The 256-colour palette index of the foreground, nil for the default colour.
    var color: Int?
  }

  /// Cells by row and column, both from 1.
  private(set) var cells: [Int: [Int: Cell]] = [:]
  private(set) var row = 1
  private(set) var column = 1
  private(set) var isCursorVisible = true
  /// Line feeds written: a drawing updated in place writes none.
  private(set) var lineFeeds = 0
  /// Escapes this emulator does not know, such as a switch to the alternate screen.
  private(set) var unknownEscapes: [String] = []
  private var color: Int?
  private var savedCursor: (row: Int, column: Int, color: Int?) = (1, 1, nil)

  mutating func apply(_ text: String) {
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      switch scalar {
      case "\u{1B}":
        switch scalars.popFirst() {
        case "[": break
        case "7":
          savedCursor = (row, column, color)
          continue
        case "8":
          (row, column, color) = savedCursor
          continue
        case let other:
          unknownEscapes.append("ESC \(other.map(String.init) ?? "at the end")")
          continue
        }
        var parameters = ""
        while let next = scalars.popFirst() {
          if (0x40...0x7E).contains(next.value) {
            controlSequence(parameters: parameters, final: Character(next))
            break
          }
          parameters.unicodeScalars.append(next)
        }
      case "\r":
        column = 1
      case "\n":
        row += 1
        lineFeeds += 1
      default:
        cells[row, default: [:]][column] = Cell(character: Character(scalar), color: color)
        column += 1
      }
    }
  }

  private mutating func controlSequence(parameters: String, final: Character) {
    let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0)
    }
    switch (parameters, final) {
    case ("?25", "l"): isCursorVisible = false
    case ("?25", "h"): isCursorVisible = true
    case ("?7", "l"), ("?7", "h"): break  // line wrapping, which short lines never need
    case (_, "H"):
      row = numbers.first.flatMap { $0 } ?? 1
      column = numbers.count > 1 ? numbers[1] ?? 1 : 1
    case ("", "K"), ("0", "K"):
      cells[row] = cells[row]?.filter { $0.key < column }
    case ("", "J"), ("0", "J"):
      cells[row] = cells[row]?.filter { $0.key < column }
      cells = cells.filter { $0.key <= row }
    case (_, "m"):
      selectGraphicRendition(numbers.map { $0 ?? 0 })
    default:
      unknownEscapes.append("ESC[\(parameters)\(final)")
    }
  }

  private mutating func selectGraphicRendition(_ numbers: [Int]) {
    var numbers = numbers[...]
    while let number = numbers.popFirst() {
      switch number {
      case 0, 39: color = nil
      case 1, 22: break  // bold on and off
      case 38 where numbers.first == 5:
        numbers.removeFirst()
        color = numbers.popFirst()
      default: unknownEscapes.append("SGR \(number)")
      }
    }
  }

  func cell(row: Int, column: Int) -> Cell {
    cells[row]?[column] ?? Cell(character: " ", color: nil)
  }

  /// The characters of `row`, without trailing spaces.
  func text(row: Int) -> String {
    guard let line = cells[row], let last = line.keys.max() else { return "" }
    let text = String((1...last).map { cell(row: row, column: $0).character })
    return String(text.reversed().drop(while: { $0 == " " }).reversed())
  }
}
