import Foundation
import Testing
@testable import ProcessTestSupport

/// The real `teller run` between the real bank and a hostile one: a
/// deposit queued with the bank, the terminal restarted against a host that
/// answers wrongly, then against the bank again. Nothing is Confirmed that
/// the bank did not post, the screen and `teller ctl status` name the
/// problem, SIGTERM ends it within 1 s, and the bank gets the row once.
@Suite(.serialized) struct HostileHostTerminalTests {
    static let rich = "DE54500105170426397158"

    /// The hostile mode, the problem `teller ctl status` must name, and the status bar's word.
    static let cases: [(mode: String, problem: String, bar: String)] = [
        ("wrong-amount", "mismatch", "Connection: host problem"),
        ("captive-portal", "notUnderstood", "Connection: host problem"),
        ("drip-body", "timeout", "Connection: offline"),
    ]

    @Test(arguments: cases.map(\.mode)) func theTerminalBelievesOnlyTheBank(_ mode: String) async throws {
        let expected = try #require(Self.cases.first { $0.mode == mode })
        let bank = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        defer { Task { await bank.stop() } }
        let directory = TemporaryDirectory("teller-e2e-hostile")

        // With the bank: sign in, open the account, queue a deposit it does not take yet.
        var terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start()
        try await terminal.signIn()
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        try await bank.setFaults(.init(fail: .init(count: 1000, retryAfter: 1)))
        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("2500")
        try await terminal.tap("review.confirm")
        #expect(try await terminal.waitForScreen("receipt"))
        await terminal.stop()
        _ = try await bank.admin("DELETE", "/admin/faults")

        // Against the hostile host.
        let hostile = try await HostileHost(mode: mode).start()
        defer { Task { await hostile.stop() } }
        terminal = try TerminalProcess(directory: directory, host: hostile.url)
        try await terminal.start()
        try await terminal.ctl("sync")
        let named = try await eventuallyThrowing(timeout: .seconds(10)) {
            ((try await terminal.status()["sync_problem"]) as? [String: Any])?["kind"] as? String == expected.problem
        }
        let status = try await terminal.status()
        #expect(named, "ctl status: \(status)")
        #expect(status["online"] as? Bool == false)
        let barSays = try await terminal.waitForText(expected.bar)
        let texts = try await terminal.texts()
        #expect(barSays, "\(texts)")
        #expect(try await bank.journal().isEmpty)
        if let shots = ProcessInfo.processInfo.environment["TELLER_HOSTILE_SCREENSHOTS"] {
            try await terminal.ctl("screenshot", "\(shots)/hostile-\(mode).png")
        }

        // A drip keeps a request in flight: SIGTERM must still end the terminal within 1 s.
        let child = try #require(terminal.child)
        let signalled = ContinuousClock.now
        kill(child.pid, SIGTERM)
        #expect(await child.waitForExit(timeout: .seconds(3)))
        let took = ContinuousClock.now - signalled
        #expect(took < .seconds(1), "SIGTERM took \(took)")
        #expect(child.terminationStatus == 0, "\(child.stderr)")

        // With the bank again: the deposit posts exactly once.
        terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.ctl("sync")
        let posted = try await eventuallyThrowing(timeout: .seconds(20)) { try await bank.journal(outcome: "posted").count == 1 }
        let statusAfter = try await terminal.status()
        #expect(posted, "the bank never got the deposit: \(statusAfter)")
        try await Task.sleep(for: .seconds(1))
        let journal = try await bank.journal(outcome: "posted")
        #expect(journal.count == 1)
        #expect(journal.first?.amount == 2500)
    }
}
