import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes
import ProcessTestSupport

/// What the screens offer and say about printing: Reprint on the receipt
/// and on queue rows (a copy in the print queue), none without a printer
/// or for a voided payment, and the printer's state in the status bar and
/// diagnostics.
@MainActor
@Suite(.tags(.wallClock)) struct PrintingFeatureTests {
    static func deposit() throws -> TransactionRequest {
        try TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(1_500), operatorID: OperatorID("1001")!)
    }

    @Test func theReceiptReprintsACopy() async throws {
        let h = FeatureHarness(withPrinter: true)
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit())
        h.coordinator.push(.receipt(entry))
        let receipt = try #require(h.coordinator.current.receipt)
        #expect(receipt.canReprint && receipt.reprintTitle == "Reprint")
        await receipt.reprint()
        let jobs = try #require(await h.printQueue?.jobs)
        #expect(jobs.map(\.subject) == [entry.key.rawValue] && jobs.allSatisfy(\.isCopy))
        #expect(receipt.printMessage == "A copy is on its way to the printer.")
    }

    /// The spooler has not seen the copy yet (its report still says none
    /// wait), but the status bar counts it before the screen says it is on
    /// its way: QA's `wait-for-gone status.printer` means every slip is out.
    @Test func theStatusBarCountsASlipFromTheMomentItIsQueued() async throws {
        let h = FeatureHarness(withPrinter: true)
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit())
        h.coordinator.push(.receipt(entry))
        await h.coordinator.settle()
        #expect(h.coordinator.statusBar.printerText == nil)
        let receipt = try #require(h.coordinator.current.receipt)
        await receipt.reprint()
        #expect(await h.printer?.report.waitingJobs == 0)
        #expect(h.coordinator.statusBar.printerText == "1 slip to print")
        #expect(h.coordinator.statusBar.printerAccessibilityLabel == "Receipt printer: 1 slip to print")

        // A condition names the printer itself: the spoken label does not say it twice.
        let printer = try #require(h.printer)
        var report = await printer.report
        report.condition = .paperOut
        await printer.set(report)
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.printerText == "Printer: no paper · 1 to print")
        #expect(h.coordinator.statusBar.printerAccessibilityLabel == "Printer: no paper · 1 to print")
    }

    /// A sync event's refresh that starts while the reprint's own refresh
    /// is still reading must not swallow it: when the reprint says "on its
    /// way", the badge counts the copy, whichever refresh finishes first.
    /// (Alone it takes a fraction of a second; the limit is for a whole
    /// `swift test` on two busy cores, where every main-actor hop waits.)
    @Test(.timeLimit(.minutes(10))) func aSlipIsCountedEvenWhileASyncEventRefreshesTheStatusBar() async throws {
        let h = FeatureHarness(withPrinter: true)
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit())
        h.coordinator.push(.receipt(entry))
        await h.coordinator.settle()
        let receipt = try #require(h.coordinator.current.receipt)
        await h.sync.holdStatus(true)
        let reprinted = StartedFlag()
        let reprint = Task { @MainActor in
            await receipt.reprint()
            reprinted.value = true
        }
        await h.sync.waitUntilHeld(1)
        // The sync event's refresh begins (up to its first suspension) while the reprint's is reading.
        let started = StartedFlag()
        let syncEvent = Task { @MainActor in
            started.value = true
            await h.coordinator.refreshStatus()
        }
        while !started.value { await Task.yield() }
        // The reads finish one at a time in the order they began (a refresh
        // of the harness's own may come first), each given a second to let
        // the reprint finish before the next is released.
        while !reprinted.value {
            await h.sync.releaseFirstHeldStatus()
            for _ in 0..<10 where !reprinted.value { try await Task.sleep(for: .milliseconds(100)) }
        }
        await reprint.value
        #expect(receipt.printMessage == "A copy is on its way to the printer.")
        #expect(h.coordinator.statusBar.printerText == "1 slip to print")
        await h.sync.holdStatus(false)
        await syncEvent.value
        #expect(h.coordinator.statusBar.printerText == "1 slip to print")
    }

    @MainActor final class StartedFlag { var value = false }

    @Test func withoutAPrinterNothingOffersAReprint() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let entry = try await h.outbox.enqueue(Self.deposit())
        h.coordinator.push(.receipt(entry))
        #expect(h.coordinator.current.receipt?.canReprint == false)
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        #expect(h.coordinator.current.queue?.rows.first?.canReprint == false)
        #expect(h.coordinator.statusBar.printerText == nil)
    }

    @Test func aQueueRowReprintsButAVoidedOneDoesNot() async throws {
        let h = FeatureHarness(withPrinter: true)
        await h.signIn()
        let kept = try await h.outbox.enqueue(Self.deposit())
        let voided = try await h.outbox.enqueue(Self.deposit())
        _ = try await h.outbox.void(voided.key, reason: .duplicate, by: OperatorID("1001")!)
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue)
        let rows = queue.rows
        #expect(rows.map(\.key) == [voided.key, kept.key])
        #expect(rows.map(\.canReprint) == [false, true])
        #expect(queue.reprintAccessibilityLabel(rows[1]) == "Reprint receipt of Deposit 15.00 EUR as a copy")
        await queue.reprint(kept.key)
        #expect(await h.printQueue?.jobs.map(\.subject) == [kept.key.rawValue])
    }

    nonisolated static let states: [(PrinterReport.Condition, Int, String?)] = [
        (.ready, 0, nil), (.unknown, 0, nil), (.ready, 2, "2 slips to print"), (.paperOut, 0, "Printer: no paper"),
        (.paperOut, 1, "Printer: no paper · 1 to print"), (.coverOpen, 3, "Printer: cover open · 3 to print"),
        (.offline, 0, "Printer offline"), (.paperNearEnd, 0, "Printer: paper low"),
    ]

    @Test(arguments: states.indices) func theStatusBarShowsThePrinterOnlyWhenItMatters(_ index: Int) async throws {
        let (condition, waiting, text) = Self.states[index]
        let h = FeatureHarness(withPrinter: true)
        await h.printer?.set(PrinterReport(address: "usb:/dev/usb/lp0", condition: condition, waitingJobs: 0))
        for till in 0..<waiting { _ = try await h.printQueue?.queueTillReport(tillID: Int64(till), by: OperatorID("1001")!) }
        await h.signIn()
        await h.coordinator.refreshStatus()
        #expect(h.coordinator.statusBar.printerText == text)
        #expect(h.coordinator.statusBar.printerNeedsAttention == [.paperOut, .coverOpen, .offline, .error].contains(condition))
    }

    @Test func diagnosticsNamesThePrinterItsStateAndItsLastError() async throws {
        let h = FeatureHarness(withPrinter: true)
        await h.signIn()
        await h.diagnostics.setReport(DiagnosticsReport(
            version: "0.1.0-dev", host: nil, databasePath: "/var/lib/teller/teller.db", databaseBytes: 4096, quickCheck: "ok", sync: nil,
            systemClock: Date(timeIntervalSince1970: 1_795_000_000), hardware: nil,
            printer: PrinterReport(address: "tcp:192.0.2.7:9100", condition: .paperOut, waitingJobs: 2,
                                   lastError: "192.0.2.7:9100: connection refused")))
        h.coordinator.push(.diagnostics)
        let model = try #require(h.coordinator.current.diagnostics)
        for d in "987654" { model.press(digit: d) }
        await model.unlock()
        let lines = model.lines.map { "\($0.label): \($0.value)" }
        #expect(lines.contains("Printer: tcp:192.0.2.7:9100: out of paper, 2 waiting"), "\(lines)")
        #expect(lines.contains("Printer error: 192.0.2.7:9100: connection refused"), "\(lines)")
    }
}
