import Foundation
import TellerCore
@testable import TellerFeatures

/// Fakes of the TellerCore ports: in memory, no disk, no network. The
/// outbox fake applies the real limit rules from TellerCore.
final class FakeClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ date: Date) { current = date }
    func now() -> Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

actor FakeAccounts: AccountReading {
    var cached: [IBAN: AccountSnapshot] = [:]
    var fresh: [IBAN: AccountSnapshot] = [:]
    var offline = false

    func set(cached snapshot: AccountSnapshot?, fresh freshSnapshot: AccountSnapshot?, offline: Bool = false, for iban: IBAN) {
        cached[iban] = snapshot
        fresh[iban] = freshSnapshot
        self.offline = offline
    }

    func cachedSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot? { cached[iban] }

    func freshSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot {
        if offline { throw .offline }
        guard let snapshot = fresh[iban] else { throw .accountNotFound(iban) }
        cached[iban] = snapshot
        return snapshot
    }
}

actor FakeOutbox: OutboxPort {
    let limits: Limits
    let clock: FakeClock
    var rows: [OutboxEntry] = []
    var knownAvailable: [IBAN: Money] = [:]
    var acknowledged: [IdempotencyKey] = []

    init(limits: Limits, clock: FakeClock) {
        self.limits = limits
        self.clock = clock
    }

    func setKnownAvailable(_ money: Money, for iban: IBAN) { knownAvailable[iban] = money }

    func setState(_ key: IdempotencyKey, _ state: OutboxState) {
        if let index = rows.firstIndex(where: { $0.key == key }) { rows[index].state = state }
    }

    private func context(kind: TransactionKind, account: IBAN, isOnline: Bool) -> LimitContext {
        let eur = limits.currency
        let today = rows.filter { if case .rejected = $0.state { false } else { true } }.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let pending = rows.filter(\.state.isPending)
        let queued = pending.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let debits = pending.filter { $0.request.account == account && $0.request.kind.isDebit }.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let withdrawable = knownAvailable[account].map { Money(minorUnits: $0.minorUnits - debits, currency: $0.currency) }
        let oldest = pending.map(\.createdAt).min().map { clock.now().timeIntervalSince($0) }
        return LimitContext(isOnline: isOnline, todayTotal: Money(minorUnits: today, currency: eur), queuedTotal: Money(minorUnits: queued, currency: eur), oldestQueuedAge: oldest, withdrawable: withdrawable)
    }

    func enqueue(_ request: TransactionRequest, isOnline: Bool) async throws(TellerError) -> OutboxEntry {
        do {
            try limits.check(request.amount, kind: request.kind, context: context(kind: request.kind, account: request.account, isOnline: isOnline))
        } catch {
            throw .limit(error)
        }
        let entry = OutboxEntry(id: Int64(rows.count + 1), key: .random(), request: request, createdAt: clock.now(), state: .queued)
        rows.append(entry)
        return entry
    }

    func remainingLimits(kind: TransactionKind, account: IBAN, isOnline: Bool) async throws(TellerError) -> RemainingLimits {
        do { return try limits.remaining(kind: kind, context: context(kind: kind, account: account, isOnline: isOnline)) } catch { throw .limit(error) }
    }

    func entries() async throws(TellerError) -> [OutboxEntry] { rows.reversed() }

    func summary() async throws(TellerError) -> QueueSummary {
        var counts: [String: Int] = [:]
        for row in rows { counts[row.state.name, default: 0] += 1 }
        let pending = rows.filter(\.state.isPending)
        let total = pending.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let unacknowledged = rows.filter { if case .rejected(_, false) = $0.state { true } else { false } }.count
        return QueueSummary(countsByState: counts, pendingByCurrency: pending.isEmpty ? [:] : [.eur: Money(minorUnits: total, currency: .eur)],
                            oldestQueuedAt: pending.map(\.createdAt).min(), unacknowledgedRejections: unacknowledged)
    }

    func pendingDebits(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        rows.filter { $0.state.isPending && $0.request.account == account && $0.request.kind.isDebit }
    }

    func pendingEntries(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        rows.filter { $0.state.isPending && $0.request.account == account }.reversed()
    }

    func acknowledgeRejection(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) {
        guard let index = rows.firstIndex(where: { $0.key == key }), case .rejected(let reason, false) = rows[index].state else { throw .noSuchEntry(key) }
        rows[index].state = .rejected(reason: reason, acknowledged: true)
        acknowledged.append(key)
    }
}

actor FakeSync: SyncStatusPort {
    var online: Bool
    var lastSync: Date?
    var syncNowCount = 0
    private var continuations: [AsyncStream<SyncEvent>.Continuation] = []

    init(online: Bool) { self.online = online }

    func events() async -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
        continuations.append(continuation)
        return stream
    }

    func status() async -> SyncStatus { SyncStatus(isOnline: online, lastSyncAt: lastSync) }
    func syncNow() async { syncNowCount += 1 }

    func send(_ event: SyncEvent) {
        if event == .online { online = true }
        if event == .offline { online = false }
        for continuation in continuations { continuation.yield(event) }
    }
}

actor FakeSession: OperatorSessionPort {
    var pins: [String: (name: String, pin: String)] = ["1001": ("Maria Keller", "1234")]
    var seenOnline: Set<String> = ["1001"]
    var online = true
    var failures: [String: Int] = [:]
    let clock: FakeClock

    init(clock: FakeClock) { self.clock = clock }

    func setOnline(_ value: Bool) { online = value }

    func signIn(_ id: OperatorID, pin: String) async throws(SignInError) -> (Operator, SignInMode) {
        guard let known = pins[id.rawValue] else {
            if !online { throw .neverSeenOnline(id) }
            throw try failure(id)
        }
        if !online && !seenOnline.contains(id.rawValue) { throw .neverSeenOnline(id) }
        guard known.pin == pin else { throw try failure(id) }
        failures[id.rawValue] = 0
        return (Operator(id: id, displayName: known.name), online ? .online : .offline)
    }

    func unlock(_ signedIn: Operator, pin: String) async throws(SignInError) {
        guard pins[signedIn.id.rawValue]?.pin == pin else { throw try failure(signedIn.id) }
    }

    private func failure(_ id: OperatorID) throws(SignInError) -> SignInError {
        failures[id.rawValue, default: 0] += 1
        let count = failures[id.rawValue]!
        if count >= 3 { return .lockedOut(until: clock.now().addingTimeInterval(300)) }
        return .wrongPIN(attemptsLeft: 3 - count)
    }
}

actor FakeDiagnostics: DiagnosticsPort {
    var saved: [[Double]] = []
    func verifyTechnicianPIN(_ pin: String) async -> Bool { pin == "987654" }
    func report() async -> [DiagnosticsLine] { [DiagnosticsLine(label: "Version", value: "test")] }
    func saveCalibration(_ matrix: [Double]) async throws(TellerError) { saved.append(matrix) }
}

/// A whole feature layer on fakes, at a fixed time in UTC.
@MainActor
struct FeatureHarness {
    let clock = FakeClock(Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 8 * 3600 + 2 * 60))
    let accounts = FakeAccounts()
    let outbox: FakeOutbox
    let sync: FakeSync
    let session: FakeSession
    let diagnostics = FakeDiagnostics()
    let coordinator: Coordinator

    static let account = try! IBAN("DE54500105170426397158")
    static let lowBalance = try! IBAN("DE98100700002431457802")
    static func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }

    init(online: Bool = true, idleLockAfter: TimeInterval = 120) {
        let limits = try! Limits(currency: .eur, perTransaction: Self.eur(1_000_000), dailyPerTerminal: Self.eur(5_000_000),
                                 perOfflineTransaction: Self.eur(200_000), offlineQueuedTotal: Self.eur(1_000_000), maxOfflineAge: 72 * 3600)
        outbox = FakeOutbox(limits: limits, clock: clock)
        sync = FakeSync(online: online)
        session = FakeSession(clock: clock)
        coordinator = Coordinator(dependencies: FeatureDependencies(
            accounts: accounts, outbox: outbox, sync: sync, session: session, diagnostics: diagnostics, clock: clock,
            terminal: TerminalIdentity(terminalID: "T-0001", branch: "Main St"), time: TimeFormatting(timeZone: TimeZone(identifier: "UTC")!),
            idleLockAfter: idleLockAfter))
    }

    func snapshot(_ iban: IBAN = account, balance: Int64 = 1_250_000, available: Int64 = 1_250_000, asOf: Date) -> AccountSnapshot {
        AccountSnapshot(iban: iban, holder: "Anna Schmidt", balance: Self.eur(balance), available: Self.eur(available), asOf: asOf,
                        recent: [ActivityItem(reference: "H20261129-0000001", kind: .deposit, amount: Self.eur(5_000), bookedAt: asOf, description: "Cash")])
    }

    /// Signs in operator 1001 through the sign-in screen's keypad.
    func signIn() async {
        await coordinator.start()
        guard case .signIn(let model) = coordinator.current else { return }
        for digit in "1001" { model.press(digit: digit) }
        await model.enter()
        for digit in "1234" { model.press(digit: digit) }
        await model.enter()
        await coordinator.settle()
    }
}
