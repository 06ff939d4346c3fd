import Foundation
import Testing
import TellerCore
import TellerData
@testable import ProcessHarness
import ProcessTestSupport

/// The terminal booted offline with a wrong clock (libfaketime), two
/// deposits queued, then the clock and the bank come back: every row drains
/// exactly once, none goes to needs review, the offline limits still hold,
/// and a row stamped while the clock was below the floor says so.
@Suite(.serialized, .tags(.realProcess, .referenceHost, .slow)) struct ClockTests {
    static let rich = "DE54500105170426397158"

    /// The fake wall clock, and whether the terminal can tell it is wrong
    /// (a clock ahead of the truth is not detectable offline).
    static let cases: [(spec: String, detectable: Bool)] = [
        ("@1970-01-02 00:00:00", true),
        ("-30d", true),
        ("+30d", false),
    ]

    @Test(arguments: cases.map(\.spec)) func queuedRowsDrainExactlyOnceWhateverTheClockSaid(_ spec: String) async throws {
        let detectable = try #require(Self.cases.first { $0.spec == spec }).detectable
        let bankDirectory = TemporaryDirectory("e2e-host")
        var bank = try await ReferenceHost(directory: bankDirectory).start()
        let directory = TemporaryDirectory("teller-e2e-clock")

        // Online once with the true time: the operator's verifier and the account are cached.
        var terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start()
        try await terminal.signIn()
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        await terminal.stop()
        await bank.stop()

        // Offline, with the wrong clock.
        terminal = try TerminalProcess(directory: directory, host: bank.url)
        try await terminal.start(fakeTime: spec)
        try await terminal.signIn()
        let bar = try await terminal.texts()
        #expect(bar.contains("Clock not set") == detectable, "\(spec): \(bar)")
        for amount in ["2500", "1250"] {
            try await terminal.openAccount(Self.rich)
            try await terminal.tap("account.deposit")
            try await terminal.enterAmount(amount)
            try await terminal.tap("review.confirm")
            #expect(try await terminal.waitForScreen("receipt"))
            #expect(try await terminal.texts().contains("Queued"))
            try await terminal.tap("receipt.done")
        }
        if let shots = ProcessInfo.processInfo.environment["TELLER_CLOCK_SCREENSHOTS"] {
            try await terminal.ctl("screenshot", "\(shots)/clock-\(detectable ? "not-set" : "ahead").png")
        }
        // The offline limit still holds.
        try await terminal.openAccount(Self.rich)
        try await terminal.tap("account.withdraw")
        try await terminal.enterAmount("250000")
        let refused = try await terminal.waitForText("Over the offline limit of 2,000.00 EUR per transaction.")
        let screenTexts = try await terminal.texts()
        #expect(refused, "\(screenTexts)")
        await terminal.stop()
        #expect(terminal.processesStillRunning().isEmpty, "the terminal under faketime outlived stop()")

        // The rows as stamped: flagged when the clock was known to be wrong.
        let store = try TellerStore(readingOnly: directory.file("data"), limits: Limits(
            currency: .eur, perTransaction: Money(minorUnits: 1, currency: .eur), dailyPerTerminal: Money(minorUnits: 1, currency: .eur),
            perOfflineTransaction: Money(minorUnits: 1, currency: .eur), offlineQueuedTotal: Money(minorUnits: 1, currency: .eur), maxOfflineAge: 1))
        let rows = try await store.entries()
        #expect(rows.count == 2)
        for row in rows {
            let payload = String(decoding: try #require(try await store.frozenPayload(for: row.key)), as: UTF8.self)
            #expect(payload.contains(#""clock_unverified":true"#) == detectable, "\(spec): \(payload)")
            #expect(row.createdAt > Date(timeIntervalSince1970: 1_795_996_800 - 1), "never stamped before the build date: \(row.createdAt)")
        }

        // The clock is right again and the bank is back: each row posts exactly once.
        let back = try await ReferenceHost(directory: bankDirectory, port: bank.port).start()
        defer { Task { await back.stop() } }
        bank = back
        let corrected = try TerminalProcess(directory: directory, host: bank.url)
        terminal = corrected
        try await terminal.start()
        defer { corrected.child?.killNow() }
        try await terminal.ctl("sync")
        let drained = try await eventuallyThrowing(timeout: .seconds(60)) { try await bank.journal(outcome: "posted").count == 2 }
        let statusNow = try await terminal.status()
        #expect(drained, "\(spec): \(statusNow)")
        // A second in which a second posting of either would reach the bank: nothing signals one that never comes.
        try await Task.sleep(for: .seconds(1))
        let journal = try await bank.journal(outcome: "posted")
        #expect(journal.map(\.amount).sorted() == [1250, 2500], "each deposit once: \(journal.map(\.amount))")
        let status = try await terminal.status()
        #expect(status["queued_count"] as? Int == 0, "\(status)")
        let review = try await TellerStatusReview.count(dataDirectory: directory.file("data"))
        #expect(review == 0, "no row went to needs review")
        _ = store
    }
}

/// Rows in needs review, as `teller status` reports them.
enum TellerStatusReview {
    static func count(dataDirectory: String) async throws -> Int {
        let files = TemporaryDirectory("teller-status-files")
        let configFile = files.file("teller.conf")
        try Data().write(to: URL(fileURLWithPath: configFile))
        let result = try await ChildProcess.run(TestProducts.executable("teller"), ["status", "--config", configFile, "--data-dir", dataDirectory])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return (json["counts"] as? [String: Int])?["needsReview"] ?? -1
    }
}
