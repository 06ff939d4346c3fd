import Device
import Foundation
import Graphics
import Testing
import TellerCore
import TellerData
@testable import ProcessHarness
import ProcessTestSupport

/// The whole terminal as real processes: `teller run` offscreen against the
/// reference host, touched through `teller ctl` (synthetic evdev events at
/// element centres), asserted through the accessibility tree.
@Suite(.serialized, .tags(.realProcess, .referenceHost, .slow)) struct TerminalFlowTests {
    static let rich = "DE54500105170426397158"
    static let low = "DE98100700002431457802"

    /// A reference host and a terminal pointed at it, signed in as operator 1001.
    func signedInTerminal(configuration: [String] = []) async throws -> (ReferenceHost, TerminalProcess) {
        let host = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        let terminal = try TerminalProcess(host: host.url, configuration: configuration)
        try await terminal.start()
        try await terminal.signIn()
        #expect(try await terminal.waitForScreen("home"))
        return (host, terminal)
    }

    @Test func depositIsQueuedThenConfirmedWhenTheHostTakesIt() async throws {
        let (host, terminal) = try await signedInTerminal()
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        // The host takes nothing for now: the receipt must say Queued, not Sent.
        try await host.setFaults(.init(fail: .init(count: 1000, retryAfter: 1)))
        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("2500")
        try await terminal.tap("review.confirm")
        #expect(try await terminal.waitForScreen("receipt"))
        #expect(try await terminal.texts().contains("Queued"))
        #expect(try await host.journal().isEmpty)

        _ = try await host.admin("DELETE", "/admin/faults")
        try await terminal.ctl("sync")
        #expect(try await terminal.waitForText("Confirmed", timeout: .seconds(15)))
        let journal = try await host.journal()
        #expect(journal.count == 1)
        #expect(journal.first?.amount == 2500)
        let reference = try #require(journal.first?.hostReference)
        #expect(try await terminal.texts().contains { $0.contains(reference) })
        try await terminal.ctl("screenshot", terminal.directory.file("receipt.png"))
        #expect(FileManager.default.fileExists(atPath: terminal.directory.file("receipt.png")))
    }

    @Test func offlineWithdrawalOverTheOfflineLimitIsRefusedByName() async throws {
        // Online first, so the operator's verifier and the account are cached.
        let (host, terminal) = try await signedInTerminal()
        defer { terminal.child?.killNow() }
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        await host.stop()
        try await terminal.ctl("sync")
        #expect(try await eventuallyThrowing(timeout: .seconds(60)) { try await terminal.status()["online"] as? Bool == false })

        try await terminal.tap("account.withdraw")
        #expect(try await terminal.waitForText("Offline per transaction: 2,000.00 EUR"))
        try await terminal.enterAmount("250000")
        #expect(try await terminal.waitForText("Over the offline limit of 2,000.00 EUR per transaction."))
        #expect(try await terminal.screen() == "amount")
    }

    /// The host goes away and the very next withdrawal is over the offline
    /// limit: no stale "online" lets it through, it is refused by name and
    /// nothing is queued.
    @Test func aWithdrawalRightAfterTheHostStopsIsHeldToTheOfflineLimit() async throws {
        // A long request timeout keeps the bank's last answer fresh while the
        // test types on a loaded machine, so the review screen is reached and
        // the proof at Confirm (a health request to the stopped host) is what refuses.
        let (host, terminal) = try await signedInTerminal(configuration: ["request_timeout_s = 15"])
        defer { terminal.child?.killNow() }
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        #expect(try await terminal.status()["online"] as? Bool == true, "the bank answered the account lookup")
        await host.stop()

        try await terminal.tap("account.withdraw")
        try await terminal.enterAmount("250000")
        try await terminal.tap("review.confirm")
        let refused = try await terminal.waitForText("Over the offline limit of 2,000.00 EUR per transaction.")
        let texts = try await terminal.texts()
        #expect(refused, "\(texts)")
        #expect(try await terminal.screen() != "receipt")
        let status = try await terminal.status()
        #expect(status["queued_count"] as? Int == 0, "\(status)")
        #expect(status["online"] as? Bool == false, "the failed proof marked the terminal offline: \(status)")
    }

    @Test func idleScreenLocksAndThePINUnlocks() async throws {
        let (host, terminal) = try await signedInTerminal(configuration: ["idle_lock_s = 15"])
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        #expect(try await terminal.waitForScreen("locked", timeout: .seconds(25)))
        try await terminal.keys("locked.pin", "1234")
        try await terminal.tap("locked.unlock")
        #expect(try await terminal.waitForScreen("home"))
    }

    @Test func rejectedTransferWaitsInTheQueueForAcknowledgement() async throws {
        // The bank must take the transfer for the bank to reject it: a loaded
        // machine must not make the terminal's evidence of the bank stale
        // (2 s by default), or the offline rules refuse it on review instead.
        let (host, terminal) = try await signedInTerminal(configuration: ["request_timeout_s = 15"])
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.openAccount(Self.low)
        #expect(try await terminal.waitForText("Jonas Weber"))
        try await terminal.tap("account.transfer")
        try await terminal.keys("amount.keys", "10000")
        try await terminal.tap("amount.recipient")
        try await terminal.ctl("type", Self.rich + "\n")
        try await terminal.tap("amount.review")
        #expect(try await terminal.waitForScreen("review"))
        try await terminal.tap("review.confirm")
        // The texts say why if the row was never written (a refusal stays on the review screen).
        let rejected = try await terminal.waitForText("Rejected", timeout: .seconds(15))
        let shown = rejected ? "" : "screen \(try await terminal.screen()): \(try await terminal.texts())"
        #expect(rejected, "\(shown)")
        try await terminal.tap("receipt.done", "home.queue")
        #expect(try await terminal.waitForText("Insufficient funds"))
        #expect(try await terminal.identifiers().contains("queue.row.0.acknowledge"))
        #expect(try await terminal.status()["rejected_count"] as? Int == 1)
        try await terminal.tap("queue.row.0.acknowledge")
        #expect(try await terminal.waitForText("Rejected (acknowledged)"))
        #expect(try await terminal.status()["rejected_count"] as? Int == 0)
    }

    @Test func killedMidFlowAndRestartedShowsTheSameQueue() async throws {
        let (host, terminal) = try await signedInTerminal()
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        await host.stop()
        try await terminal.ctl("sync")
        for amount in ["1500", "2700"] {
            try await terminal.tap("account.deposit")
            try await terminal.enterAmount(amount)
            try await terminal.tap("review.confirm")
            #expect(try await terminal.waitForScreen("receipt"))
            try await terminal.tap("receipt.done")
            try await terminal.openAccount(Self.rich)
        }
        // Half-way through a third one, the power goes.
        try await terminal.tap("account.deposit")
        try await terminal.keys("amount.keys", "99")
        await terminal.stop(SIGKILL)

        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.signIn()
        #expect(try await terminal.waitForScreen("home"))
        try await terminal.tap("home.queue")
        #expect(try await terminal.waitForText("2 waiting to be sent"))
        let texts = try await terminal.texts()
        #expect(texts.contains { $0.contains("Deposit 15.00 EUR") })
        #expect(texts.contains { $0.contains("Deposit 27.00 EUR") })
        #expect(try await terminal.status()["queued_count"] as? Int == 2)
    }

    @Test func scannerTypingAnIBANAndEnterOpensTheAccount() async throws {
        let (host, terminal) = try await signedInTerminal()
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.tap("home.find-account")
        // A barcode scanner: a HID keyboard that types the code, then Enter.
        let recording = try Self.scannerRecording(typing: Self.rich)
        let path = terminal.directory.file("scanner.evemu")
        try recording.write(to: path)
        try await terminal.ctl("play", path)
        #expect(try await terminal.waitForScreen("account"))
        #expect(try await terminal.waitForText("Anna Schmidt"))
    }

    /// What evemu-record would capture from a USB barcode scanner.
    static func scannerRecording(typing text: String) throws -> EvemuRecording {
        let capabilities = KeyboardInjector.capabilities(name: "Teller QA Barcode Scanner")
        var events: [InputEvent] = []
        let sink = InProcessInputDevice(capabilities: capabilities) { events += $0 }
        try KeyboardInjector(sink: sink).type(text, pressEnter: true)
        return EvemuRecording(capabilities: capabilities, events: events)
    }
}

/// A tap on an element the operator cannot see must fail, naming it: a
/// touch clamped to the screen's edge would land on something else.
@Suite(.tags(.realProcess, .referenceHost)) struct InvisibleTapTests {
    @Test func tappingARowScrolledOutOfViewFailsAndNamesIt() async throws {
        let bank = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        defer { Task { await bank.stop() } }
        try await bank.setFaults(.init(fail: .init(count: 1000, retryAfter: 60)))
        let terminal = try TerminalProcess(host: bank.url)
        // Thirty queued rows, written before the terminal opens the database.
        do {
            let eur = Money(minorUnits: 100_000_000, currency: .eur)
            let limits = try Limits(currency: .eur, perTransaction: eur, dailyPerTerminal: eur, perOfflineTransaction: eur,
                                    offlineQueuedTotal: eur, maxOfflineAge: 1e9)
            let store = try TellerStore(dataDirectory: terminal.directory.file("data"), limits: limits)
            for index in 0..<30 {
                let amount = Money(minorUnits: 1_000 + Int64(index), currency: .eur)
                _ = try await store.enqueue(TransactionRequest(kind: .deposit, account: IBAN("DE54500105170426397158"), amount: amount,
                                                               operatorID: try #require(OperatorID("1001"))))
            }
        }
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.signIn()
        try await terminal.tap("home.queue")
        #expect(try await terminal.waitForScreen("queue"))
        try await terminal.tap("queue.row.0")
        do {
            try await terminal.tap("queue.row.29")
            Issue.record("a tap on a row scrolled out of view reported success")
        } catch TerminalError.ctlFailed(_, let message) {
            #expect(message.contains("'queue.row.29' is not visible"), "\(message)")
        }
        let tree = try #require(try await terminal.ctl("ui") as? [String: Any])
        var visibility: [String: Bool] = [:]
        func walk(_ node: [String: Any]) {
            if let id = node["identifier"] as? String, let visible = node["visible"] as? Bool { visibility[id] = visible }
            for child in node["children"] as? [[String: Any]] ?? [] { walk(child) }
        }
        walk(tree)
        #expect(visibility["queue.row.0"] == true)
        #expect(visibility["queue.row.29"] == false)
    }
}
