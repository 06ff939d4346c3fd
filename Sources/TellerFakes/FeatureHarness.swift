import FoundationEssentials
import TellerCore
import TellerFeatures

/// A whole feature layer on fakes, at a fixed time, shown in UTC unless a
/// test asks for another zone.
@MainActor
public struct FeatureHarness {
    public let clock = FakeClock(Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 8 * 3600 + 2 * 60))
    public let accounts = FakeAccounts()
    public let outbox: FakeOutbox
    public let sync: FakeSync
    public let session: FakeSession
    public let diagnostics = FakeDiagnostics()
    public let touchCalibration = FakeTouchCalibration()
    public let till: FakeTill
    /// Nil unless the harness was made `withPrinter`.
    public let printQueue: FakePrintQueue?
    public let printer: FakePrinterStatus?
    public let coordinator: Coordinator

    /// The terminal the harness is unless told otherwise.
    public static let terminal = TerminalIdentity(terminalID: "T-0001", branch: "Main St")
    public static let account = try! IBAN("DE54500105170426397158")
    public static let lowBalance = try! IBAN("DE98100700002431457802")
    public static func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }

    /// - Parameter zone: whose wall clock the screens read. UTC by default,
    ///   so that what they show depends neither on the machine's zone nor on
    ///   a test that sets `TZ`.
    public init(online: Bool = true, idleLockAfter: TimeInterval = 120, terminal: TerminalIdentity = FeatureHarness.terminal,
                zone: LocalTime.Zone = .utc, withPrinter: Bool = false) {
        let limits = try! Limits(currency: .eur, perTransaction: Self.eur(1_000_000), dailyPerTerminal: Self.eur(5_000_000),
                                 perOfflineTransaction: Self.eur(200_000), offlineQueuedTotal: Self.eur(1_000_000), maxOfflineAge: 72 * 3600)
        sync = FakeSync(online: online)
        outbox = FakeOutbox(limits: limits, clock: clock, sync: sync)
        session = FakeSession(clock: clock)
        till = FakeTill(clock: clock, tolerance: Self.eur(100))
        printQueue = withPrinter ? FakePrintQueue(clock: clock, outbox: outbox) : nil
        printer = withPrinter ? FakePrinterStatus() : nil
        coordinator = Coordinator(dependencies: FeatureDependencies(
            accounts: accounts, outbox: outbox, sync: sync, session: session, diagnostics: diagnostics, till: till, touchCalibration: touchCalibration,
            clock: clock, terminal: terminal, time: TimeFormatting(zone: zone),
            idleLockAfter: idleLockAfter, printQueue: printQueue, printer: printer))
    }

    public func snapshot(_ iban: IBAN = account, balance: Int64 = 1_250_000, available: Int64 = 1_250_000, asOf: Date) -> AccountSnapshot {
        AccountSnapshot(iban: iban, holder: "Anna Schmidt", balance: Self.eur(balance), available: Self.eur(available), asOf: asOf,
                        recent: [ActivityItem(reference: "H20261129-0000001", kind: .deposit, amount: Self.eur(5_000), bookedAt: asOf, description: "Cash")])
    }

    /// Signs in operator 1001 through the sign-in screen's keypad.
    public func signIn() async {
        await coordinator.start()
        guard let model = coordinator.current.signIn else { preconditionFailure("signIn() starts on sign-in, not \(coordinator.current.screenName)") }
        for digit in "1001" { model.press(digit: digit) }
        await model.enter()
        for digit in "1234" { model.press(digit: digit) }
        await model.enter()
        await coordinator.settle()
    }

    /// The queue after days offline: `rows` deposits of 10.00, 10.01, … EUR,
    /// oldest first; every 37th rejected and every 53rd needing review, none
    /// acknowledged, so the rows to act on are scattered through the outbox.
    public func fillQueue(rows: Int) async throws {
        for index in 0..<rows {
            let entry = try await outbox.enqueue(try TransactionRequest(kind: .deposit, account: Self.account,
                                                                        amount: Self.eur(1_000 + Int64(index)),
                                                                        operatorID: OperatorID("1001")!))
            if index % 37 == 36 { await outbox.setState(entry.key, .rejected(reason: "account_blocked", acknowledged: false)) }
            if index % 53 == 52 { await outbox.setState(entry.key, .needsReview(reason: "The bank's answer was for another payment", acknowledged: false)) }
        }
        await coordinator.refreshStatus()
    }
}
