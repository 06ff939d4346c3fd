import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// What the status bar says across a restart, through the real `teller
/// run` and the reference host: it says Online as soon as the bank has
/// answered the first request of the run (it said Offline until something
/// else changed), and "Synced …" survives a restart, as does `last_sync` in
/// `teller ctl status`, because the bank's last answer is in the store.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) struct StatusBarRestartTests {
    @Test func theBarSaysOnlineAtOnceAndTheLastSyncSurvivesARestartWithTheBankGone() async throws {
        let bank = try await ReferenceHost(directory: TemporaryDirectory("status-bar-host")).start()
        defer { Task { await bank.stop() } }
        let directory = TemporaryDirectory("teller-status-bar")
        var terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start()
        // Before anyone signs in, with nothing sent: the health probe's answer is the first of the run.
        let online = try await eventuallyThrowing(timeout: .seconds(60)) { try await terminal.status()["online"] as? Bool == true }
        #expect(online)
        let barSaysOnline = try await terminal.waitForText("Connection: online", timeout: .seconds(5))
        let before = try await terminal.texts()
        #expect(barSaysOnline, "\(before)")
        #expect(before.contains("Never synced"), "nothing was ever posted: \(before)")

        try await terminal.signIn()
        try await terminal.openAccount("DE54500105170426397158")
        #expect(try await terminal.waitForText("Anna Schmidt"))
        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("2500")
        try await terminal.tap("review.confirm")
        let posted = try await eventuallyThrowing(timeout: .seconds(60)) { try await terminal.status()["last_sync"] is String }
        #expect(posted)
        let lastSync = try #require(try await terminal.status()["last_sync"] as? String)
        await terminal.stop()

        await bank.stop()
        terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        let status = try await terminal.status()
        #expect(status["last_sync"] as? String == lastSync, "\(status)")
        let barSaysSynced = try await terminal.waitForText("Synced", timeout: .seconds(5))
        let after = try await terminal.texts()
        #expect(barSaysSynced && !after.contains("Never synced"), "\(after)")
    }
}
