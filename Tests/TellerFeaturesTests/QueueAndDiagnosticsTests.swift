import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

@MainActor
@Suite struct QueueAndDiagnosticsTests {
    @Test func rejectedRowMustBeAcknowledgedWithItsReason() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let entry = try await h.outbox.enqueue(TransactionRequest(kind: .transfer, account: FeatureHarness.lowBalance, counterparty: FeatureHarness.account, amount: FeatureHarness.eur(9_000), operatorID: OperatorID("1001")!))
        await h.outbox.setState(entry.key, .rejected(reason: "insufficient_funds", acknowledged: false))
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue screen is not on top: \(h.coordinator.current.screenName)")
        let row = try #require(queue.rows.first)
        #expect(row.stateText == "Rejected")
        #expect(row.needsAcknowledgement)
        #expect(row.detail.hasPrefix("Insufficient funds · DE98 1007 0000 2431 4578 02 → DE54"))
        #expect(queue.summaryText == "0 waiting to be sent · 1 rejection to acknowledge")
        await queue.acknowledge(row.key)
        #expect(await h.outbox.acknowledged == [entry.key])
        #expect(queue.rows.first?.stateText == "Rejected (acknowledged)")
        #expect(queue.rows.first?.needsAcknowledgement == false)
        await queue.syncNow()
        #expect(await h.sync.syncNowCount == 1)
    }

    /// A voided row is history: it waits for nothing and asks nothing of the operator.
    @Test func aVoidedRowSaysVoidedAndAsksNothing() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let entry = try await h.outbox.enqueue(TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(1_500),
                                                                  operatorID: OperatorID("1001")!))
        _ = try await h.outbox.void(entry.key, reason: .wrongAmount, by: OperatorID("1001")!)
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue screen is not on top: \(h.coordinator.current.screenName)")
        let row = try #require(queue.rows.first)
        #expect(row.stateText == "Voided")
        #expect(!row.needsAcknowledgement && !row.mustBeActedOn)
        #expect(row.tone == .neutral)
        #expect(queue.summaryText == "0 waiting to be sent")
    }

    /// The colour's meaning is the view model's decision; the screen only maps it to the theme.
    @Test func everyStateHasTheToneItsWordMeans() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let states: [(OutboxState, Tone)] = [
            (.queued, .neutral),
            (.sending, .neutral),
            (.confirmed(reference: "H-1"), .positive),
            (.rejected(reason: "account_blocked", acknowledged: false), .negative),
            (.rejected(reason: "account_blocked", acknowledged: true), .neutral),
            (.needsReview(reason: "mismatch", acknowledged: false), .attention),
            (.needsReview(reason: "mismatch", acknowledged: true), .attention),
        ]
        var keys: [IdempotencyKey] = []
        for (state, _) in states {
            let entry = try await h.outbox.enqueue(TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(100), operatorID: OperatorID("1001")!))
            await h.outbox.setState(entry.key, state)
            keys.append(entry.key)
        }
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue screen is not on top: \(h.coordinator.current.screenName)")
        let tones = Dictionary(uniqueKeysWithValues: queue.rows.map { ($0.key, $0.tone) })
        #expect(keys.map { tones[$0] } == states.map(\.1), "\(queue.rows.map(\.stateText))")
    }

    /// After days offline the rows to act on must not hide among hundreds: they come first, each group newest first.
    @Test func rowsToActOnComeFirstInTheirOwnOrder() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let states: [OutboxState] = [
            .queued, .rejected(reason: "account_blocked", acknowledged: false), .confirmed(reference: "H-1"),
            .needsReview(reason: "mismatch", acknowledged: true), .rejected(reason: "account_blocked", acknowledged: true), .sending,
            .needsReview(reason: "mismatch", acknowledged: false), .queued, .rejected(reason: "insufficient_funds", acknowledged: false),
        ]
        var keys: [IdempotencyKey] = []
        for state in states {
            let entry = try await h.outbox.enqueue(TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(100), operatorID: OperatorID("1001")!))
            await h.outbox.setState(entry.key, state)
            keys.append(entry.key)
        }
        h.coordinator.push(.queue)
        await h.coordinator.settle()
        let queue = try #require(h.coordinator.current.queue, "the queue screen is not on top: \(h.coordinator.current.screenName)")
        // Entered 0...8; newest first within each group.
        let toActOn = [8, 6, 3, 1].map { keys[$0] }
        let rest = [7, 5, 4, 2, 0].map { keys[$0] }
        #expect(queue.rows.map(\.key) == toActOn + rest, "\(queue.rows.map(\.stateText))")
        #expect(queue.rows.map(\.mustBeActedOn) == Array(repeating: true, count: 4) + Array(repeating: false, count: 5))
    }

    @Test func technicianPINGuardsDiagnosticsAndCalibrationIsSaved() async throws {
        let h = FeatureHarness()
        await h.signIn()
        h.coordinator.push(.diagnostics)
        let model = try #require(h.coordinator.current.diagnostics, "the diagnostics screen is not on top: \(h.coordinator.current.screenName)")
        for d in "1111" { model.press(digit: d) }
        await model.unlock()
        #expect(model.mode == .locked)
        #expect(model.message == "Wrong technician PIN.")
        for d in "987654" { model.press(digit: d) }
        await model.unlock()
        #expect(model.mode == .report)
        #expect(model.lines.first == ReviewViewModel.Line(label: "Version", value: "test"))
        model.startTouchTest()
        model.touched(x: 10, y: 20)
        #expect(model.touches.count == 1)
        model.startCalibration()
        // The panel reports every point shifted by +0.05 in x: the solved matrix undoes it.
        for target in DiagnosticsViewModel.calibrationTargets {
            await model.calibrationTap(rawX: target.x + 0.05, rawY: target.y)
        }
        #expect(model.mode == .calibrated)
        let saved = try #require(await h.diagnostics.saved.first)
        for (value, expected) in zip(saved, [1, 0, -0.05, 0, 1, 0]) { #expect(abs(value - expected) < 1e-9) }
        // The touchscreen went raw for the taps and took the saved matrix after.
        #expect(h.touchCalibration.calls == [.begin, .apply(saved)])
    }

    /// Every fact the port reports, in the technician's words and order:
    /// the text the terminal showed when it built these lines itself.
    @Test func reportFactsAreWordedInDisplayOrder() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let since = Date(timeIntervalSince1970: 1_795_000_000)
        let key = try #require(IdempotencyKey(rawValue: "5A3C1001-7E11-4C00-8000-000000000000"))
        let request = try TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(5_000), operatorID: OperatorID("1001")!)
        await h.diagnostics.setReport(DiagnosticsReport(
            version: "0.1.0-dev", host: URL(string: "https://host.bank.example/v1"),
            databasePath: "/var/lib/teller/teller.db", databaseBytes: 1_258_291, quickCheck: "ok",
            sync: SyncStatus(isOnline: false, lastSyncAt: nil, problem: SyncProblem(kind: .timeout, detail: "no answer in 10 s", since: since),
                             clockVerified: false),
            systemClock: Date(timeIntervalSince1970: 86_400),
            needsReview: [OutboxEntry(id: 1, key: key, request: request, createdAt: since, state: .needsReview(reason: "mismatch", acknowledged: false),
                                      lastError: "the answer named another amount")],
            lastStorageFailure: StorageFailure(kind: .full, detail: "SQLITE_FULL writing teller.db"),
            hardware: .init(display: "drm /dev/dri/card0 HDMI-A-1 800x480@60 rotation 90", rotationDegrees: 90, inputs: [
                .init(name: "FT5406 memory based driver", kind: .multitouchScreen, path: "/dev/input/event0"),
                .init(name: "Honeywell 1900", kind: .scanner, path: "/dev/input/event3"),
            ])))
        let model = try await openDiagnostics(h)
        #expect(model.lines.map { "\($0.label): \($0.value)" } == [
            "Version: 0.1.0-dev",
            "Terminal: T-0001 · Main St",
            "Host: https://host.bank.example/v1",
            "Database: /var/lib/teller/teller.db",
            "Clock: not set: the system clock says 1970-01-02T00:00:00Z; rows are stamped from the last time the terminal knows (flagged clock_unverified)",
            "Sync problem: timeout since 2026-11-18T11:06:40Z: no answer in 10 s",
            "Needs review: 5a3c1001: the answer named another amount",
            "Database size: 1228 KiB",
            "quick_check: ok",
            "Last storage error: full: SQLITE_FULL writing teller.db",
            "Display: drm /dev/dri/card0 HDMI-A-1 800x480@60 rotation 90",
            "Rotation: 90°",
            "Input: FT5406 memory based driver (multitouchScreen) /dev/input/event0",
            "Input: Honeywell 1900 (scanner) /dev/input/event3",
        ])
    }

    /// What an unprovisioned, offline-only terminal whose checks failed
    /// says: nobody can sign in there, so its own screen shows the facts.
    @Test func missingFactsSayWhy() async throws {
        let unprovisioned = FeatureHarness(terminal: TerminalIdentity(terminalID: nil, branch: ""))
        await unprovisioned.diagnostics.setReport(DiagnosticsReport(
            version: "0.1.0-dev", host: nil, databasePath: "/var/lib/teller/teller.db", databaseBytes: nil,
            quickCheck: nil, sync: nil, systemClock: Date(), hardware: .init(display: "offscreen 800x480 rotation 0", rotationDegrees: 0, inputs: [])))
        await unprovisioned.coordinator.start()
        await unprovisioned.coordinator.settle()
        let notice = try #require(unprovisioned.coordinator.current.unprovisioned, "not the unprovisioned screen: \(unprovisioned.coordinator.current.screenName)")
        #expect(notice.facts.map { "\($0.label): \($0.value)" } == [
            "Version: 0.1.0-dev", "Terminal: not provisioned", "Host: none (offline only)", "Database: /var/lib/teller/teller.db",
            "Database size: unknown", "quick_check: failed to run", "Display: offscreen 800x480 rotation 0", "Rotation: 0°", "Input: no devices",
        ])
        let h = FeatureHarness()
        await h.signIn()
        await h.diagnostics.setReport(DiagnosticsReport(
            version: "0.1.0-dev", host: URL(string: "https://host.bank.example/v1"),
            databasePath: "/var/lib/teller/teller.db", databaseBytes: 4096, quickCheck: "ok",
            sync: SyncStatus(isOnline: false, lastSyncAt: nil), systemClock: Date(), hardware: nil))
        let again = try await openDiagnostics(h)
        #expect(again.lines.map(\.value).contains("none yet"))
        #expect(!again.lines.contains { $0.label == "Display" })
    }

    /// However calibration starts and ends, the touchscreen hears it.
    @Test func calibrationStartFinishAndCancelReachTheTouchscreen() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let model = try await openDiagnostics(h)
        let calls = { h.touchCalibration.calls }

        // Done in the middle: the old calibration applies again.
        model.startCalibration()
        await model.calibrationTap(rawX: 0.1, rawY: 0.1)
        model.done()
        #expect(model.mode == .report)
        #expect(calls() == [.begin, .cancel])

        // Finished: the new matrix applies.
        model.startCalibration()
        for target in DiagnosticsViewModel.calibrationTargets { await model.calibrationTap(rawX: target.x, rawY: target.y) }
        let saved = try #require(await h.diagnostics.saved.last)
        #expect(calls() == [.begin, .cancel, .begin, .apply(saved)])
        model.done()
        #expect(calls().count == 4, "Done after a saved calibration changes nothing")

        // Not saved: the matrix is not applied, the old one comes back.
        await h.diagnostics.setSaveFailure(.storage(detail: "read-only"))
        model.startCalibration()
        for target in DiagnosticsViewModel.calibrationTargets { await model.calibrationTap(rawX: target.x, rawY: target.y) }
        #expect(model.mode == .report)
        #expect(calls().suffix(2) == [.begin, .cancel])

        // Three taps on a line start over: still uncalibrated, nothing applied.
        model.startCalibration()
        for _ in 0..<3 { await model.calibrationTap(rawX: 0.5, rawY: 0.5) }
        #expect(model.mode == .calibrating(step: 0))
        #expect(calls().suffix(2) == [.begin, .begin])
    }

    /// The idle lock takes the screen away mid-calibration: the touchscreen
    /// must not stay uncalibrated for the lock screen.
    @Test func lockingMidCalibrationRestoresTheCalibration() async throws {
        let h = FeatureHarness()
        await h.signIn()
        try await openDiagnostics(h).startCalibration()
        #expect(h.touchCalibration.calls == [.begin])
        h.coordinator.lock()
        await h.coordinator.settle()
        #expect(h.touchCalibration.calls == [.begin, .cancel])
    }

    /// Pushes diagnostics and opens it with the technician PIN.
    private func openDiagnostics(_ h: FeatureHarness) async throws -> DiagnosticsViewModel {
        if h.coordinator.current.diagnostics == nil { h.coordinator.push(.diagnostics) }
        let model = try #require(h.coordinator.current.diagnostics, "the diagnostics screen is not on top: \(h.coordinator.current.screenName)")
        for d in "987654" { model.press(digit: d) }
        await model.unlock()
        #expect(model.mode == .report)
        return model
    }

    @Test func calibrationSolverRecoversAKnownMatrix() throws {
        let truth = [0.9, 0.05, 0.02, -0.03, 1.1, -0.04]
        let raw: [(x: Double, y: Double)] = [(0.2, 0.1), (0.8, 0.4), (0.4, 0.95)]
        let targets = raw.map { (x: truth[0] * $0.x + truth[1] * $0.y + truth[2], y: truth[3] * $0.x + truth[4] * $0.y + truth[5]) }
        let solved = try #require(CalibrationSolver.matrix(targets: targets, measured: raw))
        for (value, expected) in zip(solved, truth) { #expect(abs(value - expected) < 1e-9) }
        #expect(CalibrationSolver.matrix(targets: targets, measured: [(0.1, 0.1), (0.2, 0.2), (0.3, 0.3)]) == nil)
    }
}

@Suite struct FormattingTests {
    @Test func moneyIsGroupedWithTheCode() {
        #expect(MoneyFormatting.text(Money(minorUnits: 123_450, currency: .eur)) == "1,234.50 EUR")
        #expect(MoneyFormatting.text(Money(minorUnits: -5, currency: .eur)) == "−0.05 EUR")
        #expect(MoneyFormatting.text(Money(minorUnits: 1_234_567, currency: Currency(code: "JPY")!)) == "1,234,567 JPY")
        #expect(MoneyFormatting.signed(Money(minorUnits: 500, currency: .gbp)) == "+5.00 GBP")
    }

    @Test func relativeAndClockTimes() {
        let time = TimeFormatting(zone: .utc)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(time.relative(now.addingTimeInterval(-20), now: now) == "just now")
        #expect(time.relative(now.addingTimeInterval(-120), now: now) == "2 min ago")
        #expect(time.relative(now.addingTimeInterval(-7200), now: now) == "2 h ago")
        #expect(time.relative(now.addingTimeInterval(-86_400 * 3), now: now) == "3 days ago")
        let morning = Date(timeIntervalSince1970: 1_699_948_920) // 08:02 UTC
        #expect(time.updated(morning, now: morning.addingTimeInterval(600)) == "updated 08:02")
        #expect(time.dayAndClock(morning, now: morning.addingTimeInterval(86_400)) == "14 Nov 08:02")
        // The technician's instants are UTC whatever the terminal's zone.
        #expect(TimeFormatting(zone: .fixed(secondsEastOfUTC: 3600)).timestamp(morning) == "2023-11-14T08:02:00Z")
        #expect(time.timestamp(morning.addingTimeInterval(0.75)) == "2023-11-14T08:02:00Z")
    }

    @Test func rejectionReasonsReadAsWords() {
        #expect(ReasonText.text("insufficient_funds") == "Insufficient funds")
        #expect(ReasonText.text("new_rule", detail: "Held for compliance") == "Held for compliance")
        #expect(ReasonText.text("new_rule") == "new rule")
    }
}
