import ScoreboardCore
import ScoreboardSettings

extension SerialTextDisplayOptions {
  /// The keys of a serial-text display.
  static let keys = ["port"] + SerialSettings.keys + ["template", "reinit-interval"]

  /// Reads the keys of a serial-text display; nil when the port or the template is wrong.
  ///
  /// Whether the template's fields are on the display is checked once the fields are read.
  static func parse(_ reader: inout SectionReader) -> Self? {
    let port = reader.serialPort("port")
    let line = SerialSettings.parse(&reader)
    let reinitializeInterval = reader.reinitInterval()
    var template: TextTemplate?
    if let text = reader.text("template", expected: "a template such as {home}-{away}\\r\\n") {
      do throws(TemplateSyntaxError) {
        template = try TextTemplate(parsing: text)
      } catch {
        reader.report(error.description, key: "template")
      }
    }
    guard let port, let template else { return nil }
    return Self(
      port: port, line: line, template: template, reinitializeInterval: reinitializeInterval)
  }
}
