/// The board's own web server: where it listens, who may read the board page, how many
/// connections it takes, and the name its pages give the board: the `[web]` section.
public struct WebSettings: Hashable, Sendable {
  /// Who may load `/board`.
  public enum BoardPage: String, CaseIterable, Hashable, Sendable {
    /// Anyone who reaches the server (a TV, a viewer's phone).
    case `public`
    /// Paired devices only.
    case operators
  }

  /// The address to listen on, IPv4 or IPv6 without brackets (`127.0.0.1`, `::`).
  public var address: String
  /// The TCP port.
  public var port: Int
  /// Who may load the board page.
  public var boardPage: BoardPage
  /// The most connections at once, and from one address.
  public var connectionLimit: Int
  public var connectionsPerAddress: Int
  /// What the pages call the board.
  public var name: String
  /// The folder of the pages (HTML, CSS, JavaScript).
  public var pages: String

  /// The folder the Debian package installs the pages to.
  public static let installedPages = "/usr/share/scoreboardd/web"

  /// Settings; the defaults listen on the board itself only.
  public init(
    address: String = "127.0.0.1", port: Int = 8080, boardPage: BoardPage = .public,
    connectionLimit: Int = 200, connectionsPerAddress: Int = 20, name: String = "Scoreboard",
    pages: String = WebSettings.installedPages
  ) {
    self.address = address
    self.port = port
    self.boardPage = boardPage
    self.connectionLimit = connectionLimit
    self.connectionsPerAddress = connectionsPerAddress
    self.name = name
    self.pages = pages
  }

  /// `127.0.0.1:8080`, `[::]:8080`: the address as the configuration writes it.
  public var listenText: String {
    address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
  }
}
