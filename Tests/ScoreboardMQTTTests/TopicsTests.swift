import ScoreboardMQTT
import Testing

@Suite struct TopicsTests {
  @Test func topicsAreBelowTheBase() {
    let topics = Topics(base: "scoreboardd/court-1")
    #expect(topics.state == "scoreboardd/court-1/state")
    #expect(topics.status == "scoreboardd/court-1/status")
    #expect(topics.command == "scoreboardd/court-1/command")
    #expect(topics.reply == "scoreboardd/court-1/reply")
  }
}
