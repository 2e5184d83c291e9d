import ScoreboardCore

/// Text for displays and controllers that take lines of text (`driver = serial-text`):
/// each frame is rendered with a template (`{home}-{away} P{period}\r\n`) and the text
/// is sent when it differs from the last text sent. A blank frame renders each field as
/// spaces. The device never answers.
public struct TextLineProtocol: SerialProtocol {
  /// What is sent for each frame.
  public let template: TextTemplate

  private var lastSent: [UInt8]?

  /// An encoder sending `template` rendered for each frame.
  public init(template: TextTemplate) {
    self.template = template
  }

  /// The device never answers.
  public var acknowledgement: Acknowledgement? { nil }

  /// The text for `frame`, whatever was sent before.
  public mutating func initialize(showing frame: Frame) -> [UInt8] {
    let bytes = template.render(frame)
    lastSent = bytes
    return bytes
  }

  /// The text for `frame`, whatever was sent before.
  public mutating func refresh(showing frame: Frame) -> [UInt8] {
    initialize(showing: frame)
  }

  /// The text for `frame` when it differs from the last text sent; empty otherwise.
  public mutating func update(to frame: Frame, appendingTo bytes: inout [UInt8]) {
    let line = template.render(frame)
    guard line != lastSent else { return }
    lastSent = line
    bytes += line
  }
}
