import ScoreboardCore

/// The replies to the last requests that came with an id, so that a request delivered
/// again (a QoS 1 redelivery, a sender's retry after reconnecting) is answered with its
/// first reply and not carried out a second time.
///
/// It holds at most `capacity` ids; the one remembered first is forgotten first. The
/// state file keeps the newest of them (`SavedState.commandReplies`), so that the
/// memory outlives a restart.
public struct RecentCommands: Sendable {
  /// How many ids are kept unless told otherwise.
  public static let defaultCapacity = 256

  /// The most ids kept, 1 or more.
  public let capacity: Int
  private var replies: [String: String] = [:]
  /// The ids in the order they were remembered: a ring of `capacity` slots.
  private var order: [String] = []
  /// The slot of `order` the next id goes in once the ring is full.
  private var oldest = 0

  /// An empty memory of `capacity` ids (at least 1).
  public init(capacity: Int = defaultCapacity) {
    self.capacity = max(capacity, 1)
    order.reserveCapacity(self.capacity)
  }

  /// A memory that holds `replies` (oldest first), as the state file kept them.
  public init(restoring replies: [SavedState.CommandReply], capacity: Int = defaultCapacity) {
    self.init(capacity: capacity)
    for saved in replies {
      remember(saved.reply, for: saved.id)
    }
  }

  /// How many ids are remembered.
  public var count: Int { order.count }

  /// The first reply to the request with `id`, if it was carried out among the last
  /// `capacity`.
  public func reply(to id: String) -> String? {
    replies[id]
  }

  /// Remembers `reply` as the answer to `id`, forgetting the oldest id when full; an id
  /// remembered already keeps its first reply and its place.
  public mutating func remember(_ reply: String, for id: String) {
    guard replies[id] == nil else { return }
    if order.count < capacity {
      order.append(id)
    } else {
      replies[order[oldest]] = nil
      order[oldest] = id
      oldest = (oldest + 1) % capacity
    }
    replies[id] = reply
  }

  /// Replaces the reply remembered for `id` (a change that could not be saved is
  /// answered `unsaved`, and so is its repetition).
  public mutating func replace(_ reply: String, for id: String) {
    guard replies[id] != nil else { return }
    replies[id] = reply
  }

  /// The ids and their replies, oldest first, as the state file keeps them.
  public var saved: [SavedState.CommandReply] {
    ids.map { SavedState.CommandReply(id: $0, reply: replies[$0] ?? "") }
  }

  /// The ids remembered, oldest first.
  public var ids: [String] {
    Array(order[oldest...] + order[..<oldest])
  }
}
