import Foundation
import TellerCore
import TellerFakes
import TellerFeatures
import TellerUI
import Testing

/// Every screen, and the states worth a look, reached through taps and
/// keys on the fakes. The name is the screenshot's file name stem.
enum Scenario: String, CaseIterable, Sendable {
    // One per screen: screenshots in both themes.
    case signIn = "sign-in"
    case unprovisioned
    case home
    case findAccount = "find-account"
    case account
    case amount
    case review
    case receipt
    case queue
    case locked
    case diagnostics
    case till
    case approval
    // States worth seeing.
    case signInPIN = "sign-in-pin"
    case signInLockout = "signin-lockout"
    case signInOffline = "signin-offline"
    case accountOfflineCached = "account-offline-cached"
    case amountTransfer = "amount-transfer"
    case amountTransferRecipient = "amount-transfer-recipient"
    case amountRefused = "amount-refused"
    case receiptConfirmed = "receipt-confirmed"
    case receiptRejected = "receipt-rejected"
    case queueRejected = "queue-rejected"
    case queueLong = "queue-long"
    case queueLongOldest = "queue-long-oldest"
    case diagnosticsReport = "diagnostics-report"
    case diagnosticsTouchTest = "diagnostics-touch-test"
    case diagnosticsCalibration = "diagnostics-calibration"
    case diagnosticsCalibrated = "diagnostics-calibrated"
    case tillOpen = "till-open"
    case receiptVoided = "receipt-voided"
    case receiptVoid = "receipt-void"
    case receiptVoidConnecting = "receipt-void-connecting"
    case tillShort = "till-short"
    case tillClosed = "till-closed"
    case diagnosticsCertificateDue = "diagnostics-certificate-due"
    case diagnosticsCertificateRefused = "diagnostics-certificate-refused"

    /// The screens themselves, shot in both themes.
    static let screens: [Scenario] = [.signIn, .unprovisioned, .home, .findAccount, .account, .amount, .review, .receipt, .queue, .locked, .diagnostics, .till, .approval]

    /// The `screenName` of the view model the scenario ends on.
    var screenName: String {
        switch self {
        case .signIn, .signInPIN, .signInLockout, .signInOffline: "sign-in"
        case .accountOfflineCached: "account"
        case .amountTransfer, .amountTransferRecipient, .amountRefused: "amount"
        case .receiptConfirmed, .receiptRejected, .receiptVoided, .receiptVoid, .receiptVoidConnecting: "receipt"
        case .queueRejected, .queueLong, .queueLongOldest: "queue"
        case .diagnosticsReport, .diagnosticsTouchTest, .diagnosticsCalibration, .diagnosticsCalibrated,
             .diagnosticsCertificateDue, .diagnosticsCertificateRefused: "diagnostics"
        case .tillOpen, .tillShort, .tillClosed: "till"
        default: rawValue
        }
    }

    var isOffline: Bool { [.signInOffline, .unprovisioned, .accountOfflineCached, .amountRefused].contains(self) }

    /// What the docs/screens index says the picture shows.
    var caption: String {
        switch self {
        case .signIn: "Sign in: operator ID first, on the number pad."
        case .unprovisioned: "A terminal without a terminal id: not provisioned, how to provision it, and its facts; no sign-in."
        case .home: "Home after sign-in: Find account is the main action; Queue, Technician, Lock, Sign out."
        case .findAccount: "Find account: a half-typed IBAN with the live validation line."
        case .account: "Account: holder, balance and available, recent activity with this terminal's Queued deposit, the three transactions."
        case .amount: "Deposit amount on the cash-register keypad with the limits left."
        case .review: "Review of a deposit with the big Confirm."
        case .receipt: "Receipt straight after Confirm: Queued."
        case .queue: "Queue with a queued and a confirmed row, and Sync now."
        case .locked: "Lock screen: the operator's PIN unlocks it."
        case .diagnostics: "Technician diagnostics behind the technician PIN."
        case .till: "Open till: the float counted by note and coin, the keypad typing the selected row's pieces."
        case .approval: "Supervisor approval on the operator's screen: a deposit over the per-transaction limit, the supervisor's ID and PIN."
        case .receiptVoided: "A queued deposit voided from its receipt (reason: wrong amount, then Void payment): never sent, no money moved."
        case .receiptVoid: "Void, the first tap: every reason, one chosen (Wrong account), Keep it, and Void payment, which voids only now."
        case .receiptVoidConnecting: "A void while the terminal is still trying to reach the bank with this payment (a retry, past the 5 s wait): refused, nothing sent, and Void offered again."
        case .tillOpen: "The open till: the float, cash in and out, and the cash position."
        case .tillShort: "Closing with a count 10.00 short: refused beyond the tolerance, with Call supervisor."
        case .tillClosed: "The closed till after a supervisor approved the difference: expected, counted, short, approved by."
        case .signInPIN: "Sign in, second step: the PIN shows as dots only."
        case .signInLockout: "Three wrong PINs: the lockout message says until when."
        case .signInOffline: "Sign in while the host is unreachable, with the offline note."
        case .accountOfflineCached: "Offline: the cached figures stay, with the quiet \"updated HH:MM\" line."
        case .amountTransfer: "Transfer: amount field focused, recipient below, limits left."
        case .amountTransferRecipient: "Transfer: recipient field focused, the keyboard takes the full width."
        case .amountRefused: "Offline withdrawal over the offline limit, refused with the limit named."
        case .receiptConfirmed: "The receipt after the bank confirmed: Confirmed with the bank reference."
        case .receiptRejected: "The receipt after the bank rejected it, with the reason."
        case .queueRejected: "A rejected row with its reason and the Acknowledge button."
        case .queueLong: "200 rows after days offline: the rejected and needs-review rows first, Top and Oldest under the list."
        case .queueLongOldest: "The long queue after one tap on Oldest: the first row entered, at the bottom."
        case .diagnosticsReport: "The diagnostics report with the touch test and calibration buttons."
        case .diagnosticsTouchTest: "Touch test: a dot at every touch."
        case .diagnosticsCalibration: "Calibration: the cross of the second target."
        case .diagnosticsCalibrated: "After the third calibration tap: the saved matrix, and Done."
        case .diagnosticsCertificateDue: "The report with the terminal's client certificate 9 days before it expires: renew it now."
        case .diagnosticsCertificateRefused: "The report once the certificate has expired: the bank refuses it, and the sync problem names why."
        }
    }

    /// Drives a fresh terminal to this scenario.
    @MainActor
    func drive(_ d: TerminalDriver) async throws {
        let h = d.harness
        switch self {
        case .signIn, .signInOffline:
            return
        case .unprovisioned:
            await h.diagnostics.setReport(DiagnosticsReport(
                version: "1.4.0", host: nil, databasePath: "/var/lib/teller/teller.db", databaseBytes: 20_480, quickCheck: "ok",
                sync: nil, systemClock: h.clock.now(),
                hardware: .init(display: "drm /dev/dri/card0 HDMI-A-1 800x480@60 rotation 0", rotationDegrees: 0, inputs: [
                    .init(name: "FT5406 memory based driver", kind: .multitouchScreen, path: "/dev/input/event0"),
                ])))
            await h.coordinator.current.appeared()
            return
        case .signInPIN:
            await d.key("1001", on: SignInScreen.Control.keypad)
            await d.key("12", on: SignInScreen.Control.keypad, enter: false)
            return
        case .signInLockout:
            await d.key("1001", on: SignInScreen.Control.keypad)
            for _ in 0..<3 { await d.key("9999", on: SignInScreen.Control.keypad) }
            return
        default:
            break
        }
        await d.stockAccount(cachedOnly: self == .accountOfflineCached)
        await d.signIn()
        switch self {
        case .home:
            _ = try await h.outbox.enqueue(request(.deposit, 25_000))
            await h.coordinator.refreshStatus()
        case .findAccount:
            await d.tap(HomeScreen.Control.findAccount)
            await d.tap("DE54500105".map { "find-account.keys.\($0)" })
        case .account, .accountOfflineCached:
            _ = try await h.outbox.enqueue(request(.deposit, 25_000))
            await h.coordinator.refreshStatus()
            await d.openAccount()
        case .amount:
            await d.openAccount()
            await d.tap(AccountScreen.Control.deposit)
            await d.key("25000", on: AmountEntryScreen.Control.keys, enter: false)
        case .amountTransfer, .amountTransferRecipient:
            await d.openAccount()
            await d.tap(AccountScreen.Control.transfer)
            await d.key("12050", on: AmountEntryScreen.Control.keys, enter: false)
            if self == .amountTransferRecipient {
                await d.tap(AmountEntryScreen.Control.recipientField)
                await d.tap("ES912100".map { "amount.keys.\($0)" })
            }
        case .amountRefused:
            await d.openAccount()
            await d.tap(AccountScreen.Control.withdraw)
            await d.key("250000", on: AmountEntryScreen.Control.keys, enter: false)
            await d.tap(AmountEntryScreen.Control.review)
        case .review:
            await d.openAccount()
            await d.tap(AccountScreen.Control.deposit)
            await d.key("25000", on: AmountEntryScreen.Control.keys, enter: false)
            await d.tap(AmountEntryScreen.Control.review)
        case .receipt, .receiptConfirmed, .receiptRejected:
            await d.openAccount()
            await d.deposit("25000")
            let key = try #require(d.receipt?.entry.key, "no receipt after the deposit")
            // What the sync engine does: announce the enqueue, then post the outcome on the row and announce it.
            await h.sync.send(.queued(key))
            if self == .receiptConfirmed {
                await h.outbox.setState(key, .confirmed(reference: "H20261129-0000042"))
                await h.sync.send(.confirmed(key, reference: "H20261129-0000042"))
            }
            if self == .receiptRejected {
                await h.outbox.setState(key, .rejected(reason: "account_blocked", acknowledged: false))
                await h.sync.send(.rejected(key, reason: "account_blocked"))
            }
            // In whatever language the scenario runs.
            if self != .receipt { await d.waitUntil { d.receipt?.statusTitle != tr("Queued") } }
            let summary = self == .receipt
                ? trn("{count} queued · {amounts}", "{count} queued · {amounts}", count: 1, ["amounts": MoneyFormatting.text(FeatureHarness.eur(25_000))])
                : tr("Queue empty")
            let queued = tr("Queue: {summary}", ["summary": summary])
            await d.waitUntil { d.layout().node(withIdentifier: "status.queue")?.label == queued }
        case .queue, .queueRejected:
            let first = try await h.outbox.enqueue(request(.deposit, 25_000))
            let second = try await h.outbox.enqueue(request(.withdrawal, 12_000))
            _ = try await h.outbox.enqueue(request(.transfer, 7_550, to: "ES9121000418450200051332"))
            do { await h.outbox.setState(first.key, .confirmed(reference: "H20261129-0000042")) }
            if self == .queueRejected { await h.outbox.setState(second.key, .rejected(reason: "insufficient_funds", acknowledged: false)) }
            await h.coordinator.refreshStatus()
            await d.tap(HomeScreen.Control.queue)
        case .queueLong, .queueLongOldest:
            try await h.fillQueue(rows: 200)
            await d.tap(HomeScreen.Control.queue)
            if self == .queueLongOldest { await d.tap(QueueScreen.Control.bottom) }
        case .locked:
            await d.tap(HomeScreen.Control.lock)
        case .receiptVoided, .receiptVoid, .receiptVoidConnecting:
            await d.openAccount()
            await d.deposit("25000")
            if self == .receiptVoidConnecting { await h.outbox.setStillConnecting(try #require(d.receipt?.entry.key, "no receipt after the deposit"), true) }
            await d.tap(ReceiptScreen.Control.void)
            if self == .receiptVoid { return await d.tap(ReceiptScreen.Control.voidReason(.wrongAccount)) }
            await d.tap(ReceiptScreen.Control.voidReason(.wrongAmount))
            await d.tap(ReceiptScreen.Control.confirmVoid)
        case .till, .tillOpen, .tillShort, .tillClosed:
            await d.tap(HomeScreen.Control.till)
            await count(d, [(5000, "2"), (1000, "5"), (200, "10")])
            if self == .till { return }
            await d.tap(TillScreen.Control.open)
            let open = try #require(await h.till.openTill(of: OperatorID("1001")!), "the till did not open")
            await h.till.recordCash(FeatureHarness.eur(25_000), for: open.operatorID, deposit: true)
            await h.till.recordCash(FeatureHarness.eur(12_000), for: open.operatorID, deposit: false)
            // A deposit voided at the counter and one the bank refused (to settle): the till lists both.
            for (minor, key, state) in [(2_500, "7c41d0a2-5b3e-4f61-8a9d-0e1f2a3b4c5d", OutboxState.voided(reason: .wrongAmount)),
                                        (6_000, "b90e3f17-2c4d-4e5f-9a0b-1c2d3e4f5a6b", .rejected(reason: "account_blocked", acknowledged: false))] {
                let request = try TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(Int64(minor)),
                                                     operatorID: open.operatorID)
                await h.till.recordException(OutboxEntry(id: 1, key: IdempotencyKey(rawValue: key)!, request: request, createdAt: h.clock.now(), state: state))
            }
            // Leave the till and come back: the position is read again.
            await d.tap(TillScreen.Control.back)
            await d.tap(HomeScreen.Control.till)
            if self == .tillOpen { return }
            await d.tap(TillScreen.Control.startClose)
            await count(d, [(5000, "5"), (2000, "1"), (1000, "6"), (200, "10")])
            await d.tap(TillScreen.Control.close)
            if self == .tillShort { return }
            await d.tap(TillScreen.Control.supervisor)
            await d.key("2001", on: "approval.pin")
            await d.key("2468", on: "approval.pin")
        case .approval:
            await d.openAccount()
            await d.tap(AccountScreen.Control.deposit)
            await d.key("1500000", on: AmountEntryScreen.Control.keys, enter: false)
            await d.tap(AmountEntryScreen.Control.review)
            await d.tap(AmountEntryScreen.Control.supervisor)
            await d.key("2001", on: "approval.pin")
        case .diagnostics, .diagnosticsReport, .diagnosticsTouchTest, .diagnosticsCalibration, .diagnosticsCalibrated,
             .diagnosticsCertificateDue, .diagnosticsCertificateRefused:
            let now = h.clock.now()
            let refused = self == .diagnosticsCertificateRefused
            let certificate: ClientCertificateStatus? = self == .diagnosticsCertificateDue || refused
                ? ClientCertificateStatus(subject: "T-0001", issuer: "Musterbank Terminal CA", notBefore: now - 356 * 86_400,
                                          notAfter: now + (refused ? -86_400 : 9.5 * 86_400), warnDays: 30)
                : nil
            let problem = refused ? SyncProblem(kind: .certificateExpired, detail: "TLS: the host refused this terminal's client certificate: client_cert (T-0001, issued by Musterbank Terminal CA) expired", since: now - 3_600) : nil
            if refused {
                await h.sync.setProblem(problem)
                await h.sync.send(.problem(problem))
            }
            await h.diagnostics.setReport(DiagnosticsReport(
                version: "1.4.0", host: URL(string: "https://host.bank.example/v1"),
                databasePath: "/var/lib/teller/teller.db", databaseBytes: 1_258_291, quickCheck: "ok",
                sync: SyncStatus(isOnline: !refused, lastSyncAt: now, problem: problem), systemClock: now,
                hardware: .init(display: "drm /dev/dri/card0 HDMI-A-1 800x480@60 rotation 0", rotationDegrees: 0, inputs: [
                    .init(name: "FT5406 memory based driver", kind: .multitouchScreen, path: "/dev/input/event0"),
                    .init(name: "Honeywell 1900", kind: .scanner, path: "/dev/input/event3"),
                ]), clientCertificate: certificate))
            await d.tap(HomeScreen.Control.diagnostics)
            if self == .diagnostics {
                await d.key("98", on: DiagnosticsScreen.Control.keypad, enter: false)
                return
            }
            await d.key("987654", on: DiagnosticsScreen.Control.keypad, enter: false)
            await d.tap(DiagnosticsScreen.Control.open)
            if self == .diagnosticsTouchTest {
                await d.tap(DiagnosticsScreen.Control.touchTest)
                for (x, y) in [(120, 90), (400, 240), (610, 380), (700, 60), (250, 420)] {
                    d.view.handleTouch(x: x, y: y, rawX: Double(x) / 800, rawY: Double(y) / 480)
                }
            }
            if self == .diagnosticsCalibration || self == .diagnosticsCalibrated {
                await d.tap(DiagnosticsScreen.Control.calibrate)
                d.view.handleTouch(x: 82, y: 50, rawX: 0.102, rawY: 0.104)
                await d.coordinator.settle()
            }
            if self == .diagnosticsCalibrated {
                d.view.handleTouch(x: 718, y: 238, rawX: 0.898, rawY: 0.497)
                await d.coordinator.settle()
                d.view.handleTouch(x: 240, y: 430, rawX: 0.301, rawY: 0.899)
                await d.coordinator.settle()
            }
        default:
            break
        }
    }

    /// Types a till count: each denomination's tile, then its pieces on the keypad.
    @MainActor
    private func count(_ d: TerminalDriver, _ pieces: [(denomination: Int64, digits: String)]) async {
        for (denomination, digits) in pieces {
            await d.tap(TillScreen.Control.count(denomination))
            await d.key(digits, on: TillScreen.Control.keypad, enter: false)
        }
    }

    @MainActor
    private func request(_ kind: TransactionKind, _ cents: Int64, to: String? = nil) -> TransactionRequest {
        try! TransactionRequest(kind: kind, account: FeatureHarness.account, counterparty: to.map { try! IBAN($0) },
                                amount: FeatureHarness.eur(cents), operatorID: OperatorID("1001")!)
    }

    /// A terminal driven to this scenario.
    @MainActor
    func make() async throws -> TerminalDriver {
        let driver = await TerminalDriver(online: !isOffline,
                                          terminal: self == .unprovisioned ? TerminalIdentity(terminalID: nil, branch: "") : FeatureHarness.terminal)
        try await drive(driver)
        return driver
    }
}
