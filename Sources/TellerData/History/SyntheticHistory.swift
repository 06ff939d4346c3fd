import FoundationEssentials
import Synchronization
import TellerCore

/// Years of counter history written through the store's own write path,
/// for the retention tests and `teller-bench`: each day an operator signs
/// in, opens a till, takes payments (deposits in whole euros, a transfer
/// now and then), prints each receipt, and closes the till with the count
/// it should have; the bank answers what it is sent the same day, or, with
/// the host down, nothing. Every row and journal entry is made by the same
/// calls the terminal makes (enqueue, the sync engine's outcome commit,
/// the till's open and close, the spooler's begin and finish), never by SQL.
///
/// Make the store with ``SyntheticHistory/Clock`` and ``limits``, which let
/// a counter day's volume through, and, for receipts, `configurePrinting(receiptCopies: 1)`.
public struct SyntheticHistory: Sendable {
    /// The wall clock the history is written on: it only moves when told.
    public final class Clock: WallClock, Sendable {
        private let current: Mutex<Date>

        public init(_ start: Date) { current = Mutex(start) }

        public func now() -> Date { current.withLock { $0 } }
        /// Moves the clock `seconds` on.
        public func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    /// What the bank does with what it is sent.
    public enum Host: Sendable {
        /// Confirms each payment (rejects one in 97, which the operator
        /// acknowledges) and records each till event, the same day.
        case answers
        /// Answers nothing: every payment stays queued, every till event too.
        case down
    }

    /// What a run wrote.
    public struct Written: Hashable, Sendable {
        public var days = 0
        public var payments = 0
        public var voided = 0
        public var rejected = 0
        public var printed = 0
    }

    public let store: TellerStore
    public let clock: Clock
    public let operatorID: OperatorID
    public let account: IBAN
    public let counterparty: IBAN

    public init(store: TellerStore, clock: Clock, operatorID: OperatorID = OperatorID("1001")!) throws {
        self.store = store
        self.clock = clock
        self.operatorID = operatorID
        account = try IBAN("DE89370400440532013000")
        counterparty = try IBAN("GB29NWBK60161331926819")
    }

    /// Limits a busy counter's day fits under, on or off line (EUR).
    public static var limits: Limits {
        get throws {
            try Limits(currency: .eur, perTransaction: Money(minorUnits: 1_000_000, currency: .eur),
                       dailyPerTerminal: Money(minorUnits: 100_000_000, currency: .eur),
                       perOfflineTransaction: Money(minorUnits: 1_000_000, currency: .eur),
                       offlineQueuedTotal: Money(minorUnits: 100_000_000_000, currency: .eur), maxOfflineAge: 3_650 * 86_400)
        }
    }

    /// Writes `days` counter days of `paymentsPerDay` payments from the
    /// clock's time on, each day 08:00 to about 17:00 of the clock's time,
    /// and leaves the clock at the next day's start.
    public func write(days: Int, paymentsPerDay: Int, host: Host = .answers) async throws -> Written {
        var written = Written()
        for _ in 0..<days {
            try await day(paymentsPerDay: paymentsPerDay, host: host, into: &written)
            written.days += 1
        }
        return written
    }

    private func day(paymentsPerDay: Int, host: Host, into written: inout Written) async throws {
        func printWaiting() async throws {
            for job in try await store.waitingPrintJobs(limit: 10) {
                try await store.beginPrinting(job.id)
                try await store.finishPrinting(job.id)
                written.printed += 1
            }
        }
        let start = clock.now()
        clock.advance(8 * 3600)
        _ = try await store.append(.signIn(operatorID, mode: .online))
        // The morning's balance from the bank, which an offline transfer is checked against.
        try await store.saveSnapshot(AccountSnapshot(iban: account, holder: "Synthetic Customer", balance: Money(minorUnits: 100_000_000, currency: .eur),
                                                     available: Money(minorUnits: 100_000_000, currency: .eur), asOf: clock.now()))
        let float = TillCount(currency: .eur, pieces: [10_000: 1])
        let till = try await store.open(by: operatorID, count: float)
        // A day's payments spread over nine hours.
        let step = 9 * 3600 / Double(max(1, paymentsPerDay))
        for index in 0..<paymentsPerDay {
            clock.advance(step)
            let number = written.payments + index
            let isTransfer = number % 10 == 9
            let euros = Int64(1 + number % 50)
            let request = try TransactionRequest(kind: isTransfer ? .transfer : .deposit, account: account,
                                                 counterparty: isTransfer ? counterparty : nil,
                                                 amount: Money(minorUnits: euros * 100, currency: .eur), operatorID: operatorID)
            let entry = try await store.enqueue(request)
            // The receipt prints before anything else happens to it, as at a counter.
            try await printWaiting()
            if number % 50 == 49 {
                _ = try await store.void(entry.key, reason: .customerCancelled, by: operatorID)
                written.voided += 1
            } else {
                if host == .answers {
                    if number % 97 == 96 {
                        try await store.record(.rejected(reason: "account_blocked", detail: "synthetic", replayed: false), for: entry.id)
                        try await store.acknowledge(entry.key, by: operatorID)
                        written.rejected += 1
                    } else {
                        try await store.record(.posted(reference: "H-\(entry.id)", replayed: false), for: entry.id)
                    }
                }
            }
            try await printWaiting()
        }
        written.payments += paymentsPerDay
        // The till's own position (a rejected deposit was cash taken at the counter all the same).
        guard let position = try await store.till(till.id)?.position.minorUnits else {
            throw TellerError.storage(detail: "\(store.path): till \(till.id) is gone before it was closed")
        }
        var pieces: [Int64: Int] = [10_000: 1]
        if position > 10_000 { pieces[100] = Int((position - 10_000) / 100) }
        _ = try await store.close(by: operatorID, count: TillCount(currency: .eur, pieces: pieces), approvedBy: nil)
        if host == .answers {
            while let event = try await store.nextTillEventToSend() {
                try await store.recordTillEvent(event.id, reference: "T-\(event.id)")
            }
        }
        _ = try await store.append(.signOut(operatorID))
        clock.advance(start.addingTimeInterval(86_400).timeIntervalSince(clock.now()))
    }
}
