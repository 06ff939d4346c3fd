import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The counter day through `teller ctl` on the real processes (issue 27):
/// `teller run` offscreen against the reference host, the till opened and
/// closed by taps, a payment over the per-transaction limit approved by a
/// supervisor on the operator's screen, and what the bank recorded.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) struct CounterDayTests {
    @Test func tillApprovalAndCloseReachTheBankWithBothIdentities() async throws {
        let host = try await ReferenceHost(directory: TemporaryDirectory("day-host")).start()
        let terminal = try TerminalProcess(host: host.url, configuration: ["supervisors = 2001"])
        try await terminal.start()
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.signIn()
        #expect(try await terminal.waitForScreen("home"))
        #expect(try await terminal.status()["till"] is NSNull, "no till open yet")

        // Open with 4 x 50.00: ctl status shows the till and its position.
        try await terminal.tap("home.till", "till.count.5000", "till.keys.4", "till.open")
        #expect(try await terminal.waitForText("Cash position"))
        let opened = try #require(try await terminal.status()["till"] as? [String: Any], "ctl status has no till")
        #expect((opened["position"] as? [String: Any])?["amount"] as? String == "200.00", "\(opened)")
        try await terminal.tap("till.back")

        // 12,000.00 is over the 10,000.00 per-transaction limit: the supervisor signs.
        try await terminal.openAccount(TerminalFlowTests.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("1200000")
        #expect(try await terminal.waitForText("Over the per-transaction limit"))
        try await terminal.tap("amount.supervisor")
        // The operator's own number is refused as it is entered, before a PIN; the supervisor's is taken.
        try await terminal.keys("approval.pin", "1001")
        try await terminal.tap("approval.pin.enter")
        #expect(try await terminal.waitForText("Nobody can approve their own payment"))
        let asked = try await terminal.texts()
        #expect(!asked.contains { $0.contains("PIN for operator") }, "no PIN is asked for")
        try await terminal.tap("approval.back")
        try await terminal.tap("amount.supervisor")
        try await terminal.keys("approval.pin", "2001")
        try await terminal.tap("approval.pin.enter")
        try await terminal.keys("approval.pin", "2468")
        try await terminal.tap("approval.pin.enter")
        #expect(try await terminal.waitForScreen("review"))
        #expect(try await terminal.texts().contains("Approved by"))
        try await terminal.tap("review.confirm")
        #expect(try await terminal.waitForText("Confirmed", timeout: .seconds(15)))
        let posted = try await host.journal()
        #expect(posted.map(\.amount) == [1_200_000])
        #expect(posted.first?.approvedBy == "2001")
        let position = try #require(try await terminal.status()["till"] as? [String: Any])
        #expect((position["position"] as? [String: Any])?["amount"] as? String == "12200.00", "\(position)")

        // Close 10.00 short: the supervisor approves; the bank gets the opening and the closing.
        try await terminal.tap("receipt.done", "home.till", "till.start-close", "till.count.50000", "till.keys.2", "till.keys.4",
                               "till.count.5000", "till.keys.3", "till.count.1000", "till.keys.4", "till.close")
        #expect(try await terminal.waitForText("10.00 EUR short"))
        try await terminal.tap("till.supervisor")
        try await terminal.keys("approval.pin", "2001")
        try await terminal.tap("approval.pin.enter")
        try await terminal.keys("approval.pin", "2468")
        try await terminal.tap("approval.pin.enter")
        #expect(try await terminal.waitForText("Approved by"))
        #expect(try await terminal.status()["till"] is NSNull, "the till closed")
        let sent = try await eventuallyThrowing(timeout: .seconds(60)) { try await host.tillEvents().count == 2 }
        let events = try await host.tillEvents()
        #expect(sent, "\(events.map(\.event))")
        #expect(events.map(\.event) == ["opened", "closed"])
        #expect(events.last?.total == 1_219_000)
        #expect(events.last?.approvedBy == "2001")
    }
}
