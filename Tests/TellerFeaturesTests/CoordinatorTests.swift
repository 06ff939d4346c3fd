import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

@MainActor
@Suite struct CoordinatorTests {
    @Test func startsSignedOutAndSignInReplacesTheStackWithHome() async throws {
        let h = FeatureHarness()
        #expect(h.coordinator.phase == .signedOut)
        #expect(h.coordinator.current.screenName == "sign-in")
        await h.signIn()
        #expect(h.coordinator.phase == .active(Operator(id: OperatorID("1001")!, displayName: "Maria Keller")))
        #expect(h.coordinator.routes == [.home])
        #expect(h.coordinator.signInMode == .online)
    }

    @Test func lockingAndSigningOutReplaceTheWholeStack() async throws {
        let h = FeatureHarness()
        await h.signIn()
        h.coordinator.push(.findAccount)
        h.coordinator.push(.account(FeatureHarness.account))
        #expect(h.coordinator.routes.count == 3)
        h.coordinator.lock()
        #expect(h.coordinator.routes.isEmpty)
        #expect(h.coordinator.stack.count == 1)
        #expect(h.coordinator.current.screenName == "locked")
        h.coordinator.signOut()
        #expect(h.coordinator.phase == .signedOut)
        #expect(h.coordinator.current.screenName == "sign-in")
        // Nothing can be pushed while signed out.
        h.coordinator.push(.queue)
        #expect(h.coordinator.current.screenName == "sign-in")
    }

    /// Signing out, from the home screen or the lock screen, tells the
    /// session (the journal records it); signing out while signed out does not.
    @Test func signingOutIsRecordedForWhoeverWasSignedIn() async throws {
        let h = FeatureHarness()
        await h.signIn()
        h.coordinator.signOut()
        await h.coordinator.settle()
        #expect(await h.session.signedOut == [OperatorID("1001")!])
        await h.signIn()
        h.coordinator.lock()
        h.coordinator.signOut()
        h.coordinator.signOut()
        await h.coordinator.settle()
        #expect(await h.session.signedOut == [OperatorID("1001")!, OperatorID("1001")!])
    }

    @Test func idleTimeLocksAndThePINUnlocks() async throws {
        let h = FeatureHarness(idleLockAfter: 60)
        await h.signIn()
        h.clock.advance(59)
        h.coordinator.tick()
        #expect(h.coordinator.current.screenName == "home")
        h.coordinator.noteActivity()
        h.clock.advance(59)
        h.coordinator.tick()
        #expect(h.coordinator.current.screenName == "home", "activity postpones the lock")
        h.clock.advance(1)
        h.coordinator.tick()
        let locked = try #require(h.coordinator.current.locked, "the locked screen is not on top: \(h.coordinator.current.screenName)")
        #expect(locked.subtitle.contains("Maria Keller"))
        for digit in "9999" { locked.press(digit: digit) }
        await locked.unlock()
        #expect(locked.message == "Wrong PIN. 2 attempts left.")
        for digit in "1234" { locked.press(digit: digit) }
        await locked.unlock()
        #expect(h.coordinator.current.screenName == "home")
    }

    @Test func statusBarShowsConnectionQueueSyncOperatorAndClock() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        let bar = h.coordinator.statusBar
        #expect(bar.connectionText == "Offline")
        #expect(bar.queueText == "Queue empty")
        #expect(bar.syncText == "Never synced")
        #expect(bar.whoText == "Maria Keller · T-0001")
        #expect(bar.clockText == "08:02")
        let request = try TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(123_450), operatorID: OperatorID("1001")!)
        _ = try await h.outbox.enqueue(request)
        await h.sync.send(.online)
        try await waitUntil { bar.connectionText == "Online" && bar.queueText == "1 queued · 1,234.50 EUR" }
    }

    @Test func anUnprovisionedTerminalSaysSoInTheStatusBar() {
        let h = FeatureHarness(terminal: TerminalIdentity(terminalID: nil, branch: ""))
        #expect(h.coordinator.statusBar.whoText == "unprovisioned")
    }

    /// A terminal without a terminal id offers no sign-in: it says it is
    /// not provisioned and how to provision it, and stays so after a sign-out.
    @Test func anUnprovisionedTerminalShowsTheTechnicianNoticeNotTheSignIn() async throws {
        let h = FeatureHarness(terminal: TerminalIdentity(terminalID: nil, branch: ""))
        await h.coordinator.start()
        let notice = try #require(h.coordinator.current.unprovisioned, "shows \(h.coordinator.current.screenName)")
        #expect(notice.title == "This terminal is not provisioned")
        #expect(notice.ways.contains { $0.contains("/usr/lib/teller/provision") })
        #expect(notice.ways.contains { $0.contains("teller.fleet") })
        h.coordinator.signOut()
        #expect(h.coordinator.current.screenName == "unprovisioned")
        #expect(FeatureHarness().coordinator.current.screenName == "sign-in")
    }
}

/// Polls a main-actor condition for up to ten seconds: what the coordinator
/// does with a sync event has no signal of its own (a hang bound, not a timing).
@MainActor
func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<1000 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition not met within 10 s", sourceLocation: sourceLocation)
}

@MainActor
@Suite struct OfflineStatusBarTests {
    @Test func queuingOfflineUpdatesTheStatusBarWithoutASyncEvent() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        await h.accounts.set(cached: h.snapshot(asOf: h.clock.now()), fresh: nil, offline: true, for: FeatureHarness.account)
        h.coordinator.push(.account(FeatureHarness.account))
        await h.coordinator.settle()
        h.coordinator.push(.amount(FeatureHarness.account, .deposit))
        await h.coordinator.settle()
        let amount = try #require(h.coordinator.current.amount, "the amount screen is not on top: \(h.coordinator.current.screenName)")
        for d in "1000" { amount.press(digit: d) }
        await amount.reviewTransaction()
        let review = try #require(h.coordinator.current.review, "the review screen is not on top: \(h.coordinator.current.screenName)")
        await review.confirm()
        await h.coordinator.settle()
        #expect(h.coordinator.statusBar.queueText == "1 queued · 10.00 EUR")
    }
}
