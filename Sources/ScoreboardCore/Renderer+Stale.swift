extension Renderer {
  /// `frame` of `display` with a dash in every cell of every field, as a mirror shows
  /// scores it can no longer vouch for; labels and indicators stay.
  public static func dashed(_ frame: Frame, of spec: ScoreboardSpec, display: DisplayLayout)
    -> Frame
  {
    var dashed = frame
    for field in spec.fields where field.display == display.name {
      for position in field.cells where dashed.cells.indices.contains(position) {
        dashed.cells[position] = .g
        dashed.characters?[position] = "-"
      }
      if dashed.fieldTexts[field.name] != nil {
        dashed.fieldTexts[field.name] = String(repeating: "-", count: field.width)
      }
    }
    dashed.colons = dashed.colons.map { _ in [] }
    return dashed
  }
}
