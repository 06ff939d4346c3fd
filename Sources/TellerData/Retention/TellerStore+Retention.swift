import FoundationEssentials
import TellerCore
import SQLite

/// One batch of retention: what it removed, and how long it held the
/// write lock.
public struct PruneStep: Sendable {
    /// What this batch removed; nothing when the pass is over.
    public var removed: RetentionReport.Counts
    /// Why the oldest journal day past retention stays, when it does.
    public var heldBack: String?
    /// The time from `BEGIN IMMEDIATE` to the commit's return.
    public var lockHeld: Duration

    /// Nothing more may be removed now.
    public var isDone: Bool { removed.total == 0 }
}

/// Retention (docs/architecture.md, "Retention"): the store removes what
/// the bank has settled once it is older than `retention_days`, a batch
/// per transaction so that no batch keeps a payment waiting, and gives
/// the freed pages back a few at a time.
extension TellerStore {
    /// Removes one batch of what retention may remove, in one `BEGIN
    /// IMMEDIATE` transaction, with its counts in `retention`: up to
    /// `batch` printed print jobs, else settled payments, else tills with
    /// their events, else the oldest journal entries of a day the bank has
    /// settled entirely, behind a checkpoint that carries the chain over
    /// them. Each is removed only once older than `retentionDays` days.
    /// When there is nothing to remove, records that the pass ended (and
    /// why the journal waits) and returns a step with nothing removed.
    ///
    /// - Throws: ``TellerError/storage(_:)`` when SQLite fails; nothing of
    ///   the batch is removed then.
    public func pruneStep(retentionDays: Int, batch: Int = 200) throws(TellerError) -> PruneStep {
        precondition(retentionDays >= RetentionPolicy.minimumDays && batch > 0, "retention_days is checked by the configuration")
        let clock = ContinuousClock()
        let started = clock.now
        let (removed, heldBack) = try translating {
            try database.inTransaction(.immediate) { () throws -> (RetentionReport.Counts, String?) in
                let now = self.clock.now()
                let cutoff = now.addingTimeInterval(-Double(retentionDays) * 86_400)
                let (removed, heldBack) = try pruneBatch(before: cutoff, limit: batch, at: now)
                if removed.total > 0 { try retention.count(removed, at: now) } else { try retention.passEnded(at: now, heldBack: heldBack) }
                return (removed, heldBack)
            }
        }
        return PruneStep(removed: removed, heldBack: heldBack, lockHeld: clock.now - started)
    }

    /// One table's batch, inside the caller's transaction.
    private func pruneBatch(before cutoff: Date, limit: Int, at now: Date) throws -> (RetentionReport.Counts, String?) {
        let jobs = try printQueue.prune(before: cutoff, limit: limit)
        if jobs > 0 { return (.init(printJobs: jobs), nil) }
        let rows = try outbox.prune(before: cutoff, limit: limit)
        if rows > 0 { return (.init(outboxRows: rows), nil) }
        let closed = try tills.prune(before: cutoff, limit: limit)
        if closed.tills > 0 { return (.init(tills: closed.tills, tillEvents: closed.events), nil) }
        guard let (entries, day) = try journal.oldestDay(before: localDay(cutoff), dayOf: { localDay($0) }) else { return (.init(), nil) }
        if let why = try journal.unsettled(entries) { return (.init(), why) }
        let batch = entries.lowerBound...min(entries.upperBound, entries.lowerBound + Int64(limit) - 1)
        if let broken = try journal.firstBreak(in: batch) {
            return (.init(), "journal \(broken); retention removes nothing from there until it is explained")
        }
        try journal.prune(batch, day: day, at: now)
        return (.init(journalEntries: batch.count), nil)
    }

    /// Gives up to `pages` free pages back to the file system when the
    /// database was made with `auto_vacuum = INCREMENTAL` (every database
    /// Teller creates); in one made before, the freed pages stay in the
    /// file and SQLite reuses them, so it stops growing instead.
    /// - Returns: the free pages left in the file.
    @discardableResult
    public func reclaimSpace(pages: Int) throws(TellerError) -> Int {
        try translating {
            if try database.queryInt64("PRAGMA auto_vacuum") == 2 {
                try database.execute("PRAGMA incremental_vacuum(\(max(1, pages)))")
            }
            return Int(try database.queryInt64("PRAGMA freelist_count") ?? 0)
        }
    }

    /// The database's size: pages in use and free, and the page size.
    public func fileSize() throws(TellerError) -> (pages: Int, free: Int, pageSize: Int) {
        try translating {
            (Int(try database.queryInt64("PRAGMA page_count") ?? 0), Int(try database.queryInt64("PRAGMA freelist_count") ?? 0),
             Int(try database.queryInt64("PRAGMA page_size") ?? 0))
        }
    }

    /// What retention has removed so far. Only reads: a store opened
    /// ``init(readingOnly:limits:)`` answers it too.
    public func retentionReport() throws(TellerError) -> RetentionReport {
        try translating { try retention.report() }
    }
}
