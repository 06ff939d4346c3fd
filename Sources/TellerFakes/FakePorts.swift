import FoundationEssentials
import Synchronization
import TellerCore

// Fakes of the TellerCore ports: in memory, no disk, no network. The
// outbox fake applies the real limit rules from TellerCore. For view-model
// and screen tests only; the executable never links them.

/// A clock the test moves by hand.
public final class FakeClock: WallClock, Sendable {
    private let current: Mutex<Date>
    public init(_ date: Date) { current = Mutex(date) }
    public func now() -> Date { current.withLock { $0 } }
    public func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

public actor FakeAccounts: AccountReading {
    public var cached: [IBAN: AccountSnapshot] = [:]
    public var fresh: [IBAN: AccountSnapshot] = [:]
    public var offline = false

    public func set(cached snapshot: AccountSnapshot?, fresh freshSnapshot: AccountSnapshot?, offline: Bool = false, for iban: IBAN) {
        cached[iban] = snapshot
        fresh[iban] = freshSnapshot
        self.offline = offline
    }

    public func cachedSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot? { cached[iban] }

    public func freshSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot {
        if offline { throw .offline }
        guard let snapshot = fresh[iban] else { throw .accountNotFound(iban) }
        cached[iban] = snapshot
        return snapshot
    }
}

public actor FakeOutbox: OutboxPort {
    public let limits: Limits
    public let clock: FakeClock
    public var rows: [OutboxEntry] = []
    public var knownAvailable: [IBAN: Money] = [:]
    public var acknowledged: [IdempotencyKey] = []

    /// Where the online limits' evidence comes from: the fake sync's "online".
    private let sync: FakeSync

    public init(limits: Limits, clock: FakeClock, sync: FakeSync) {
        self.limits = limits
        self.clock = clock
        self.sync = sync
    }

    public func setKnownAvailable(_ money: Money, for iban: IBAN) { knownAvailable[iban] = money }

    public func setState(_ key: IdempotencyKey, _ state: OutboxState) {
        if let index = rows.firstIndex(where: { $0.key == key }) { rows[index].state = state }
    }

    /// Rows whose send attempt is still connecting past the store's wait:
    /// a void of one is refused as `stillConnecting`, as the store does.
    public var stillConnecting: Set<IdempotencyKey> = []

    public func setStillConnecting(_ key: IdempotencyKey, _ connecting: Bool) {
        if connecting { stillConnecting.insert(key) } else { stillConnecting.remove(key) }
    }

    /// Records a failed attempt's class on a row, as the sync engine does.
    public func setLastProblem(_ key: IdempotencyKey, _ problem: SyncProblem.Kind?, attempts: Int) {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { return }
        rows[index].lastProblem = problem
        rows[index].attempts = attempts
    }

    private func context(kind: TransactionKind, account: IBAN) async -> LimitContext {
        let isOnline = await sync.online
        let eur = limits.currency
        let today = rows.filter { if case .rejected = $0.state { false } else { true } }.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let pending = rows.filter(\.state.isPending)
        let queued = pending.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let debits = pending.filter { $0.request.account == account && $0.request.kind.isDebit }.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let withdrawable = knownAvailable[account].map { Money(minorUnits: $0.minorUnits - debits, currency: $0.currency) }
        let oldest = pending.map(\.createdAt).min().map { clock.now().timeIntervalSince($0) }
        return LimitContext(isOnline: isOnline, todayTotal: Money(minorUnits: today, currency: eur), queuedTotal: Money(minorUnits: queued, currency: eur), oldestQueuedAge: oldest, withdrawable: withdrawable)
    }

    public func enqueue(_ request: TransactionRequest) async throws(TellerError) -> OutboxEntry {
        let context = await context(kind: request.kind, account: request.account)
        do {
            try limits.check(request.amount, kind: request.kind, context: context, approved: request.approvedBy != nil)
        } catch {
            throw .limit(error)
        }
        // A key from the row number, so receipts read the same in every run (screenshots do not churn).
        let id = Int64(rows.count + 1)
        let key = IdempotencyKey(UUID(uuidString: (0x5A3C_1000 + id).zeroPadded(8, radix: 16, uppercase: true) + "-7E11-4C00-8000-000000000000")!)
        let entry = OutboxEntry(id: id, key: key, request: request, createdAt: clock.now(), state: .queued)
        rows.append(entry)
        return entry
    }

    public func remainingLimits(kind: TransactionKind, account: IBAN) async throws(TellerError) -> RemainingLimits {
        let context = await context(kind: kind, account: account)
        do { return try limits.remaining(kind: kind, context: context) } catch { throw .limit(error) }
    }

    public func entries() async throws(TellerError) -> [OutboxEntry] {
        rows.reversed().enumerated().filter { $0.offset < OutboxQueue.recentRows || $0.element.state.isStillToSettle }.map(\.element)
    }

    public func summary() async throws(TellerError) -> QueueSummary {
        // Every state, those without rows as 0, as the store lists them.
        var counts = Dictionary(uniqueKeysWithValues: OutboxState.Kind.allCases.map { ($0, 0) })
        for row in rows { counts[row.state.kind, default: 0] += 1 }
        let pending = rows.filter(\.state.isPending)
        let total = pending.reduce(Int64(0)) { $0 + $1.request.amount.minorUnits }
        let unacknowledged = rows.filter { if case .rejected(_, false) = $0.state { true } else { false } }.count
        let reviews = rows.filter { if case .needsReview(_, false) = $0.state { true } else { false } }.count
        return QueueSummary(countsByState: counts, pendingByCurrency: pending.isEmpty ? [:] : [.eur: Money(minorUnits: total, currency: .eur)],
                            oldestQueuedAt: pending.map(\.createdAt).min(), unacknowledgedRejections: unacknowledged,
                            unacknowledgedReviews: reviews)
    }

    public func pendingDebits(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        rows.filter { $0.state.isPending && $0.request.account == account && $0.request.kind.isDebit }
    }

    public func pendingEntries(for account: IBAN) async throws(TellerError) -> [OutboxEntry] {
        rows.filter { $0.state.isPending && $0.request.account == account }.reversed()
    }

    public func acknowledge(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { throw .noSuchEntry(key) }
        switch rows[index].state {
        case .rejected(let reason, false): rows[index].state = .rejected(reason: reason, acknowledged: true)
        case .needsReview(let reason, false): rows[index].state = .needsReview(reason: reason, acknowledged: true)
        default: throw .noSuchEntry(key)
        }
        acknowledged.append(key)
    }

    /// The journal entries the store would write with each change, in order (void and reversal only).
    public private(set) var journalled: [JournalEvent] = []

    public func void(_ key: IdempotencyKey, reason: VoidReason, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { throw .noSuchEntry(key) }
        if stillConnecting.contains(key) { throw .voidRefused(.stillConnecting) }
        switch rows[index].state {
        case .queued: break
        case .sending: throw .voidRefused(.sending)
        case .confirmed(let reference): throw .voidRefused(.alreadySent(reference: reference))
        case .rejected: throw .voidRefused(.rejected)
        case .needsReview: throw .voidRefused(.needsReview)
        case .voided: throw .voidRefused(.alreadyVoided)
        }
        journalled.append(.void(rows[index], reason: reason, by: operatorID))
        rows[index].state = .voided(reason: reason)
        return rows[index]
    }

    public func reverse(_ key: IdempotencyKey, by operatorID: OperatorID) async throws(TellerError) -> OutboxEntry {
        guard let original = rows.first(where: { $0.key == key }) else { throw .noSuchEntry(key) }
        guard case .confirmed = original.state else { throw .reversalRefused(.notPosted(original.state.kind)) }
        guard original.reverses == nil else { throw .reversalRefused(.isReversal) }
        if let other = rows.first(where: { row in
            guard row.reverses == key else { return false }
            switch row.state {
            case .voided, .rejected: return false
            default: return true
            }
        }) {
            throw .reversalRefused(.alreadyReversed(by: other.key))
        }
        let request: TransactionRequest
        do {
            switch original.request.kind {
            case .deposit: request = try TransactionRequest(kind: .withdrawal, account: original.request.account, amount: original.request.amount, operatorID: operatorID)
            case .withdrawal: request = try TransactionRequest(kind: .deposit, account: original.request.account, amount: original.request.amount, operatorID: operatorID)
            case .transfer:
                request = try TransactionRequest(kind: .transfer, account: original.request.counterparty ?? original.request.account,
                                                 counterparty: original.request.account, amount: original.request.amount, operatorID: operatorID)
            }
        } catch {
            throw .rule(error)
        }
        let queued = try await enqueue(request)
        let index = rows.count - 1
        rows[index] = OutboxEntry(id: queued.id, key: queued.key, request: queued.request, createdAt: queued.createdAt, state: .queued, reverses: key)
        journalled.append(.enqueued(rows[index]))
        return rows[index]
    }
}

public actor FakeSync: SyncStatusPort {
    public var online: Bool
    public var lastSync: Date?
    public var syncNowCount = 0
    private var continuations: [AsyncStream<SyncEvent>.Continuation] = []

    public init(online: Bool) { self.online = online }

    /// A problem the engine publishes just before the next subscriber's
    /// stream exists (a running engine does not wait for the screen).
    public var problemBeforeNextSubscription: SyncProblem?
    public func setProblemBeforeNextSubscription(_ value: SyncProblem?) { problemBeforeNextSubscription = value }

    public func events() async -> AsyncStream<SyncEvent> {
        if let early = problemBeforeNextSubscription {
            problemBeforeNextSubscription = nil
            problem = early
            send(.problem(early))
        }
        let (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
        continuations.append(continuation)
        return stream
    }

    public var problem: SyncProblem?
    public func setProblem(_ value: SyncProblem?) { problem = value }
    public func setOnline(_ value: Bool) { online = value }
    public func status() async -> SyncStatus {
        if holdsStatus {
            await withCheckedContinuation {
                heldStatusCalls.append($0)
                wakeHeldWaiters()
            }
        }
        return SyncStatus(isOnline: online, lastSyncAt: lastSync, problem: problem)
    }

    /// While true, each ``status()`` waits until ``releaseFirstHeldStatus()``
    /// (first in, first out), so a test can decide which of two concurrent
    /// readers finishes first. Setting it false releases every waiting call.
    public private(set) var holdsStatus = false
    private var heldStatusCalls: [CheckedContinuation<Void, Never>] = []
    /// ``waitUntilHeld(_:)`` callers, with the count each waits for.
    private var heldWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public func holdStatus(_ value: Bool) {
        holdsStatus = value
        guard !value else { return }
        for call in heldStatusCalls { call.resume() }
        heldStatusCalls.removeAll()
    }

    public func releaseFirstHeldStatus() {
        guard !heldStatusCalls.isEmpty else { return }
        heldStatusCalls.removeFirst().resume()
    }

    /// Waits until `count` calls of ``status()`` are held, woken by the call
    /// that makes it `count` (a test's time limit bounds it).
    public func waitUntilHeld(_ count: Int) async {
        guard heldStatusCalls.count < count else { return }
        await withCheckedContinuation { heldWaiters.append((count, $0)) }
    }

    private func wakeHeldWaiters() {
        let held = heldStatusCalls.count
        for waiter in heldWaiters where waiter.count <= held { waiter.continuation.resume() }
        heldWaiters.removeAll { $0.count <= held }
    }

    public func syncNow() async { syncNowCount += 1 }
    public func setLastSync(_ date: Date?) { lastSync = date }

    public func send(_ event: SyncEvent) {
        if event == .online { online = true }
        if event == .offline { online = false }
        for continuation in continuations { continuation.yield(event) }
    }
}

public actor FakeSession: OperatorSessionPort {
    public var pins: [String: (name: String, pin: String)] = ["1001": ("Maria Keller", "1234"), "2001": ("Jonas Weber", "2468")]
    public var seenOnline: Set<String> = ["1001", "2001"]
    /// Who may approve (the `supervisors` key).
    public var supervisors: Set<String> = ["2001"]
    public var online = true
    public var failures: [String: Int] = [:]
    public let clock: FakeClock

    public init(clock: FakeClock) { self.clock = clock }

    public func setOnline(_ value: Bool) { online = value }

    public func signIn(_ id: OperatorID, pin: String) async throws(SignInError) -> (Operator, SignInMode) {
        guard let known = pins[id.rawValue] else {
            if !online { throw .neverSeenOnline(id) }
            throw try failure(id)
        }
        if !online && !seenOnline.contains(id.rawValue) { throw .neverSeenOnline(id) }
        guard known.pin == pin else { throw try failure(id) }
        failures[id.rawValue] = 0
        return (Operator(id: id, displayName: known.name), online ? .online : .offline)
    }

    /// Whoever signed in or approved online before, by the name the fake bank gives them.
    public func knownOperator(_ id: OperatorID) -> Operator? {
        guard seenOnline.contains(id.rawValue), let known = pins[id.rawValue] else { return nil }
        return Operator(id: id, displayName: known.name)
    }

    public func unlock(_ signedIn: Operator, pin: String) async throws(SignInError) {
        guard pins[signedIn.id.rawValue]?.pin == pin else { throw try failure(signedIn.id) }
    }

    /// The operators who signed out, in order.
    public private(set) var signedOut: [OperatorID] = []

    public func signOut(_ signedIn: Operator) async throws(TellerError) { signedOut.append(signedIn.id) }

    public func refusalBeforePIN(_ supervisorID: OperatorID, for operatorID: OperatorID) -> ApprovalRefusal? {
        ApprovalRefusal.beforePIN(supervisorID, for: operatorID, supervisors: Set(supervisors.compactMap(OperatorID.init)))
    }

    public func approve(_ supervisorID: OperatorID, pin: String, for operatorID: OperatorID) async throws(ApprovalRefusal) -> Operator {
        if let refusal = refusalBeforePIN(supervisorID, for: operatorID) { throw refusal }
        do throws(SignInError) {
            return try await signIn(supervisorID, pin: pin).0
        } catch {
            throw .signIn(error)
        }
    }

    private func failure(_ id: OperatorID) throws(SignInError) -> SignInError {
        failures[id.rawValue, default: 0] += 1
        let count = failures[id.rawValue]!
        if count >= 3 { return .lockedOut(until: clock.now().addingTimeInterval(300)) }
        return .wrongPIN(attemptsLeft: 3 - count)
    }
}

public actor FakeDiagnostics: DiagnosticsPort {
    public var saved: [[Double]] = []
    /// When set, saving a calibration fails with it (a read-only configuration).
    public var saveFailure: TellerError?
    public func verifyTechnicianPIN(_ pin: String) async -> Bool { pin == "987654" }
    public var facts = DiagnosticsReport(version: "test", host: nil,
                                         databasePath: "/var/lib/teller/teller.db", databaseBytes: 4096, quickCheck: "ok", sync: nil,
                                         systemClock: Date(timeIntervalSince1970: 1_795_000_000), hardware: nil)
    public func setReport(_ report: DiagnosticsReport) { facts = report }
    public func setSaveFailure(_ failure: TellerError?) { saveFailure = failure }
    public func report() async -> DiagnosticsReport { facts }
    public func saveCalibration(_ matrix: [Double]) async throws(TellerError) {
        if let saveFailure { throw saveFailure }
        saved.append(matrix)
    }

    /// The languages switched to, in order.
    public private(set) var languages: [Language] = []

    public func switchLanguage(to language: Language) async throws(TellerError) {
        if let saveFailure { throw saveFailure }
        // Recorded only: the process-wide language belongs to the tests running beside this one.
        languages.append(language)
    }
}

/// The journal in memory: appends chain nothing, they are only kept in order.
public actor FakeJournal: JournalPort {
    public private(set) var entries: [JournalEntry] = []
    public let clock: FakeClock

    public init(clock: FakeClock) { self.clock = clock }

    public func append(_ event: JournalEvent) async throws(TellerError) -> JournalEntry {
        let entry = JournalEntry(sequence: Int64(entries.count + 1), time: clock.now(), kind: event.kind, operatorID: event.operatorID,
                                 supervisorID: event.supervisorID, payload: event.payload, previousHash: entries.last?.hash ?? String(repeating: "0", count: 64),
                                 hash: (Int64(entries.count + 1)).zeroPadded(64))
        entries.append(entry)
        return entry
    }

    public func journalEntries(from first: Int64, limit: Int) async throws(TellerError) -> [JournalEntry] {
        Array(entries.filter { $0.sequence >= first }.prefix(limit))
    }
}

/// Records what the diagnostics screen asked of the touchscreen, in order.
@MainActor
public final class FakeTouchCalibration: TouchCalibrationPort {
    public enum Call: Hashable, Sendable {
        case begin
        case apply([Double])
        case cancel
    }

    public private(set) var calls: [Call] = []
    public init() {}
    public func beginCalibration() { calls.append(.begin) }
    public func apply(_ matrix: [Double]) { calls.append(.apply(matrix)) }
    public func cancelCalibration() { calls.append(.cancel) }
}

/// Tills kept in memory with the store's rules (one open per operator, the
/// tolerance, no self-approval); cash payments are added by
/// ``recordCash(_:for:deposit:)``, voided and refused ones by ``recordException(_:)``.
public actor FakeTill: TillPort {
    public nonisolated let denominations = DenominationTable.standard(for: .eur)!
    public nonisolated let tolerance: Money
    public private(set) var tills: [TillSession] = []
    let clock: FakeClock

    public init(clock: FakeClock, tolerance: Money = Money(minorUnits: 0, currency: .eur)) {
        self.clock = clock
        self.tolerance = tolerance
    }

    public func openTill(of operatorID: OperatorID) async throws(TellerError) -> TillSession? {
        tills.last { $0.operatorID == operatorID && $0.isOpen }
    }

    public func open(by operatorID: OperatorID, count: TillCount) async throws(TellerError) -> TillSession {
        guard try await openTill(of: operatorID) == nil else { throw .till(.alreadyOpen) }
        let till = TillSession(id: Int64(tills.count + 1), operatorID: operatorID, openedAt: clock.now(), opening: count,
                               cashIn: .zero(count.currency), cashOut: .zero(count.currency), cashPayments: 0)
        tills.append(till)
        return till
    }

    public func close(by operatorID: OperatorID, count: TillCount, approvedBy: OperatorID?) async throws(TellerError) -> TillSession {
        if approvedBy == operatorID { throw .approval(.ownTransaction) }
        guard let index = tills.lastIndex(where: { $0.operatorID == operatorID && $0.isOpen }) else { throw .till(.notOpen) }
        let closing = TillSession.Closing(closedAt: clock.now(), counted: count, expected: tills[index].position, approvedBy: approvedBy)
        let beyond = abs(closing.overShort.minorUnits) > tolerance.minorUnits
        if beyond, approvedBy == nil { throw .till(.needsApproval(overShort: closing.overShort, tolerance: tolerance)) }
        tills[index].closing = beyond ? closing
            : TillSession.Closing(closedAt: closing.closedAt, counted: count, expected: closing.expected, approvedBy: nil)
        return tills[index]
    }

    public func till(_ id: Int64) async throws(TellerError) -> TillSession? { tills.first { $0.id == id } }

    /// A cash payment of the operator's open till: deposits in, withdrawals out.
    public func recordCash(_ amount: Money, for operatorID: OperatorID, deposit: Bool) {
        guard let index = tills.lastIndex(where: { $0.operatorID == operatorID && $0.isOpen }) else { return }
        if deposit { tills[index].cashIn = Money(minorUnits: tills[index].cashIn.minorUnits + amount.minorUnits, currency: amount.currency) }
        else { tills[index].cashOut = Money(minorUnits: tills[index].cashOut.minorUnits + amount.minorUnits, currency: amount.currency) }
        tills[index].cashPayments += 1
    }

    /// A cash payment of its operator's open till that the bank will not
    /// post as it stands: listed as voided (the drawer never moved), or to
    /// settle (rejected or under review: its cash moved the drawer).
    public func recordException(_ entry: OutboxEntry) {
        let request = entry.request
        guard let index = tills.lastIndex(where: { $0.operatorID == request.operatorID && $0.isOpen }) else { return }
        if case .voided = entry.state { tills[index].voided.append(entry); return }
        recordCash(request.amount, for: request.operatorID, deposit: request.kind == .deposit)
        tills[index].toSettle.append(entry)
    }
}
