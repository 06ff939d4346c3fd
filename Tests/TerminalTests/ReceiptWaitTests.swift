import Foundation
import PrinterTestSupport
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `receipt_wait_s` through the real `teller run`, the reference host and a
/// network printer on the loopback: while the terminal is online the
/// customer's slip waits for the bank's answer, so a bank that answers
/// within the wait prints Confirmed, and one slower than it prints Queued
/// at the limit (the payment is confirmed later, and a reprint would say so).
/// The terminal's log names what each slip said (`printed … as …`).
@Suite(.serialized, .tags(.realProcess, .referenceHost, .virtualPrinter)) struct ReceiptWaitTests {
    struct Case: Sendable, CustomStringConvertible {
        var bankDelayMs: Int
        var receiptWait: String
        var printedAs: String
        var description: String { "bank \(bankDelayMs) ms, receipt_wait_s \(receiptWait): \(printedAs)" }
    }

    static let cases = [
        Case(bankDelayMs: 300, receiptWait: "3", printedAs: "as confirmed H"),
        // Slower than the wait, and still within request_timeout_s (2 s in TerminalProcess).
        Case(bankDelayMs: 1_500, receiptWait: "0.5", printedAs: "as queued"),
    ]

    @Test(arguments: cases) func theSlipSaysWhatTheBankHadDoneWhenItPrinted(_ expected: Case) async throws {
        let bank = try await ReferenceHost(directory: TemporaryDirectory("receipt-wait-host")).start()
        defer { Task { await bank.stop() } }
        let printer = try FakePrinter.network(answers: [1: 0x12, 2: 0x12, 3: 0x12, 4: 0x12])
        defer { printer.stop() }
        let terminal = try TerminalProcess(host: bank.url, configuration: ["printer = tcp:127.0.0.1:\(printer.port)",
                                                                          "receipt_wait_s = \(expected.receiptWait)"])
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.signIn()
        try await terminal.openAccount("DE54500105170426397158")
        #expect(try await terminal.waitForText("Anna Schmidt"))
        try await bank.setFaults(.init(delayMs: expected.bankDelayMs))

        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("2500")
        try await terminal.tap("review.confirm")
        let child = try #require(terminal.child)
        let line = await child.firstLine(containing: "printer: printed", in: .stderr, timeout: .seconds(60)) ?? ""
        #expect(line.contains(expected.printedAs), "\(line)")
        // Either way the bank posts it once, and the row ends confirmed.
        let posted = try await eventuallyThrowing(timeout: .seconds(60)) { try await bank.journal(outcome: "posted").count == 1 }
        #expect(posted)
    }

    /// Offline, the slip prints at once as Queued: nothing to wait for.
    @Test func offlineTheSlipPrintsQueuedAtOnce() async throws {
        let bank = try await ReferenceHost(directory: TemporaryDirectory("receipt-wait-host")).start()
        defer { Task { await bank.stop() } }
        let printer = try FakePrinter.network(answers: [1: 0x12, 2: 0x12, 3: 0x12, 4: 0x12])
        defer { printer.stop() }
        let terminal = try TerminalProcess(host: bank.url, configuration: ["printer = tcp:127.0.0.1:\(printer.port)", "receipt_wait_s = 10"])
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.signIn()
        try await terminal.openAccount("DE54500105170426397158")
        #expect(try await terminal.waitForText("Anna Schmidt"))
        await bank.stop()

        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("2500")
        let confirmed = ContinuousClock.now
        try await terminal.tap("review.confirm")
        let child = try #require(terminal.child)
        let line = await child.firstLine(containing: "printer: printed", in: .stderr, timeout: .seconds(15)) ?? ""
        let took = ContinuousClock.now - confirmed
        #expect(line.contains("as queued"), "\(line)")
        // Far below the 10 s wait: it did not wait for a bank it cannot reach.
        #expect(took < .seconds(6), "the slip took \(took)")
    }
}
