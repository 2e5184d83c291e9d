import ScoreboardMQTT
import Testing

@Suite struct RecentCommandsTests {
  @Test func aRequestDeliveredAgainGetsItsFirstReply() {
    var recent = RecentCommands()
    #expect(recent.reply(to: "abc") == nil)
    recent.remember("ok home 13", for: "abc")
    #expect(recent.reply(to: "abc") == "ok home 13")
    recent.remember("ok home 14", for: "abc")
    #expect(recent.reply(to: "abc") == "ok home 13")
    #expect(recent.count == 1)
  }

  /// What a daemon does with each message: carries out only what it has not seen.
  @Test func aDuplicateIsNotCarriedOutAgain() {
    var recent = RecentCommands()
    var score = 12
    var replies: [String] = []
    for id in ["a", "b", "a", "c", "b", "a"] {
      if let reply = recent.reply(to: id) {
        replies.append(reply)
        continue
      }
      score += 1
      let reply = "ok home \(score)"
      recent.remember(reply, for: id)
      replies.append(reply)
    }
    #expect(score == 15)
    #expect(
      replies == [
        "ok home 13", "ok home 14", "ok home 13", "ok home 15", "ok home 14", "ok home 13",
      ])
  }

  @Test func theOldestIsForgottenFirst() {
    var recent = RecentCommands(capacity: 3)
    for id in ["1", "2", "3"] {
      recent.remember("reply \(id)", for: id)
    }
    #expect(recent.ids == ["1", "2", "3"])
    recent.remember("reply 4", for: "4")
    #expect(recent.ids == ["2", "3", "4"])
    #expect(recent.reply(to: "1") == nil)
    #expect(recent.reply(to: "2") == "reply 2")
    // Asking again does not keep an id longer.
    recent.remember("reply 5", for: "5")
    #expect(recent.ids == ["3", "4", "5"])
    #expect(recent.reply(to: "2") == nil)
    recent.remember("again", for: "3")
    #expect(recent.ids == ["3", "4", "5"])
    for id in ["6", "7", "8", "9"] {
      recent.remember("reply \(id)", for: id)
    }
    #expect(recent.ids == ["7", "8", "9"])
    #expect(recent.count == 3)
  }

  @Test func theMemoryIsBounded() {
    var recent = RecentCommands()
    #expect(recent.capacity == 256)
    for number in 0..<10_000 {
      recent.remember("ok \(number)", for: "id-\(number)")
    }
    #expect(recent.count == 256)
    #expect(recent.ids.first == "id-9744")
    #expect(recent.ids.last == "id-9999")
    #expect(recent.reply(to: "id-9743") == nil)
    #expect(recent.reply(to: "id-9744") == "ok 9744")
  }

  @Test func aCapacityBelowOneIsOne() {
    var recent = RecentCommands(capacity: 0)
    recent.remember("x", for: "a")
    recent.remember("y", for: "b")
    #expect(recent.capacity == 1)
    #expect(recent.ids == ["b"])
  }
}
