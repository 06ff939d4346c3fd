import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

/// Why nothing goes out, as the operator reads it: the status bar says
/// "Host problem" when something answers but not as the bank does, the
/// queue gives each failed row its reason (not a count of attempts made
/// while offline), and a needs-review row waits for an acknowledgement.
@MainActor
@Suite struct SyncProblemTests {
    static func deposit(_ minor: Int64) throws -> TransactionRequest {
        try TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(minor), operatorID: OperatorID("1001")!)
    }

    @Test func theStatusBarSaysHostProblemWhenTheHostAnswersWrongly() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        await h.sync.setProblem(SyncProblem(kind: .mismatch, detail: "the host confirmed 250.00 EUR, this terminal sent 25.00 EUR", since: h.clock.now()))
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.connectionText == "Host problem")
        #expect(h.coordinator.statusBar.connectionAccessibilityLabel.contains("The answer did not match this payment"))

        await h.sync.setProblem(SyncProblem(kind: .timeout, detail: "no answer", since: h.clock.now()))
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.connectionText == "Offline", "a timeout is no answer at all")

        await h.sync.setProblem(nil)
        await h.sync.setOnline(true)
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.connectionText == "Online")
    }

    /// The engine runs before the screen listens, and publishes a problem
    /// once, not per retry: one that came before the subscription is read
    /// from the status, or the bar would say Offline for good (seen in
    /// HostileHostTerminalTests, captive-portal).
    @Test func aProblemPublishedBeforeTheScreenListensIsShown() async throws {
        let h = FeatureHarness(online: false)
        await h.sync.setProblemBeforeNextSubscription(SyncProblem(kind: .notUnderstood, detail: "a captive portal's page", since: h.clock.now()))
        await h.coordinator.start()
        await h.coordinator.settle()
        #expect(h.coordinator.statusBar.connectionText == "Host problem")
    }

    @Test func aQueuedRowShowsWhyItWaitsNotHowOftenItWasTried() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit(2_500))
        await h.outbox.setLastProblem(entry.key, .offline, attempts: 207)
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue is not on top: \(h.coordinator.current.screenName)")
        let row = try #require(queue.rows.first)
        #expect(row.stateText == "Queued")
        #expect(row.detail.hasPrefix("Waiting for the network · "), "\(row.detail)")
        #expect(!row.detail.contains("207"), "no raw attempt count: \(row.detail)")
    }

    @Test func aNeedsReviewRowIsAcknowledgedAndCountedInTheStatusBar() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit(2_500))
        let reason = "host answer does not match this transaction: the host confirmed 250.00 EUR, this terminal sent 25.00 EUR"
        await h.outbox.setState(entry.key, .needsReview(reason: reason, acknowledged: false))
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.reviewText == "1 to review")
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue is not on top: \(h.coordinator.current.screenName)")
        let row = try #require(queue.rows.first)
        #expect(row.stateText == "Needs review")
        #expect(row.needsAcknowledgement)
        #expect(row.detail.hasPrefix(reason))
        await queue.acknowledge(row.key)
        #expect(queue.rows.first?.stateText == "Needs review (acknowledged)")
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.reviewText == nil)
    }
}
