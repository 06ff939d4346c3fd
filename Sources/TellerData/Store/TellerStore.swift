import SystemCalls
import FoundationEssentials
import Synchronization
import TellerCore
import SQLite

/// The terminal's SQLite database: the outbox, the account cache, the
/// operators' offline verifiers, the journal, the tills and the print
/// queue. Implements the TellerCore ports that read and write local state.
///
/// An actor, so one connection serves every caller in order and a
/// transaction that spans its parts stays whole. Its parts are named by
/// what they keep (``OutboxStore``, ``SyncLedger``, ``TillStore``,
/// ``PrintQueueStore``, ``AccountCache``, ``OperatorStore``,
/// ``JournalStore``) and work on that connection inside the actor; its
/// extensions implement the ports by forwarding to them, keep the
/// observers, and open the transactions that span parts (an enqueue
/// writes the outbox row, its journal entries and its receipts in one).
public actor TellerStore {
    let database: Database
    /// The account snapshots (`account_cache`), on this store's connection.
    let accounts: AccountCache
    /// The operators' verifiers and lockouts (`operators`), on this store's connection.
    let operators: OperatorStore
    /// The electronic journal (`journal`), on this store's connection.
    let journal: JournalStore
    /// The payments (`outbox`), on this store's connection.
    let outbox: OutboxStore
    /// What the sync engine records of the payments it sends (`outbox`, `sync_problem`), on this store's connection.
    let ledger: SyncLedger
    /// The tills and their events for the bank (`tills`, `till_events`), on this store's connection.
    let tills: TillStore
    /// The print jobs (`print_jobs`), on this store's connection.
    let printQueue: PrintQueueStore
    /// What retention removed so far (`retention`), on this store's connection.
    let retention: RetentionLedger
    /// The database file.
    public nonisolated let path: String
    public let limits: Limits
    /// How this terminal's tills are counted (``TillPort``).
    public nonisolated let tillSettings: TillSettings
    let clock: any WallClock
    var enqueueObservers: [@Sendable (OutboxEntry) -> Void] = []
    var tillEventObservers: [@Sendable () -> Void] = []
    /// Receipts each payment queues for the printer: `receipt_copies`, or
    /// 0 without a printer (``configurePrinting(receiptCopies:)``). Set
    /// from outside the actor, so the terminal sets it as it opens the store.
    nonisolated let receiptCopies = Mutex(0)
    /// Called after a print job is committed (the print spooler's wake-up).
    var printObservers: [@Sendable () -> Void] = []
    /// Whether the bank has shown it answers, so the online limits may
    /// apply (``HostAnswers``); without a host, never (``NoHost``).
    let onlineEvidence: any OnlineEvidence
    /// What the background check found, once it found the file damaged (``damageFound(_:)``).
    private(set) var damage: String?
    /// How long a void waits for the sync engine's attempt on its row while
    /// the request has not left (``void(_:reason:by:)``).
    private(set) var voidWaitsForAttempt: Duration = .seconds(5)

    /// Sets ``voidWaitsForAttempt``.
    func setVoidWaitsForAttempt(_ limit: Duration) {
        voidWaitsForAttempt = limit
    }

    /// The database file name inside the data directory.
    public static let fileName = "teller.db"

    /// The schema version this Teller writes (the newest migration).
    public static var schemaVersion: Int64 { Schema.migrator.knownVersion }

    /// Opens or creates the store and brings its schema up to date.
    ///
    /// Rows left in `sending` by a crash go back to `queued`: the host's
    /// idempotency makes the resend safe. Print jobs left `printing` go
    /// back to `queued` marked as copies.
    ///
    /// - Throws: ``DatabaseRefusal`` naming the file when it is empty,
    ///   damaged, unreadable, another application's or from a newer Teller,
    ///   decided before anything is written: the file is left untouched.
    ///   ``SQLiteError`` when SQLite fails otherwise.
    public init(path: String, limits: Limits, till: TillSettings? = nil, clock: any WallClock = SystemClock(), zone: LocalTime.Zone = .system,
                online: any OnlineEvidence = NoHost()) throws {
        let database = try Database(path: path) { try Schema.vet($0, requiringCurrent: false) }
        // Vetting checked the whole file when a background check had marked it damaged: it is whole now.
        try? Syscall.unlink(DatabaseCheck.markPath(for: path))
        // A new database gives the pages retention frees back to the file
        // system (TellerStore.reclaimSpace). The mode is fixed once a table
        // exists; VACUUM applies it, which on an empty file costs nothing.
        if try database.queryInt64("SELECT count(*) FROM sqlite_schema") == 0 {
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
        }
        try Schema.migrator.migrate(database, now: clock.now())
        // Their requests may have reached the bank, so they can no longer be voided.
        try database.run("UPDATE outbox SET state = ?1, updated_at_ms = ?2, first_sent_at_ms = coalesce(first_sent_at_ms, ?2) WHERE state = ?3",
                         [.state(.queued), .integer(clock.now().millisecondsSince1970), .state(.sending)])
        // Slips cut off mid-print may be half on paper: they print again, marked as copies.
        // (`state != 'printed'` names the index of the waiting slips, so years of printed ones are not read.)
        try database.run("UPDATE print_jobs SET state = 'queued', copy = 1 WHERE state != 'printed' AND state = 'printing'")
        // The last committed row's time is part of the trusted clock's floor.
        if let newest = try OutboxStore.newestCreatedAt(in: database) { clock.committed(at: newest) }
        self.init(database: database, limits: limits, till: till, clock: clock, zone: zone, online: online)
    }

    /// Opens the store at `<directory>/teller.db` for reading only, for
    /// `teller status`: creates, migrates and writes nothing (see
    /// ``Database/init(readingOnly:creatingSharedMemory:)``).
    ///
    /// - Throws: ``DatabaseRefusal`` when the directory or file is missing,
    ///   or the file is empty, damaged, unreadable, another application's,
    ///   or not at this Teller's schema version; ``SQLiteError`` otherwise.
    public init(readingOnly dataDirectory: String, limits: Limits) throws {
        let database = try Database(readingOnly: dataDirectory.appendingPathComponent(TellerStore.fileName))
        try Schema.vet(database, requiringCurrent: true)
        self.init(database: database, limits: limits, till: nil, clock: SystemClock(), zone: .system, online: NoHost())
    }

    /// Opens a private copy of a dead terminal's database for `teller rescue`
    /// (``CardRescue``): vetted as ``init(path:limits:till:clock:zone:online:)``
    /// vets, its log recovered, an older schema brought up to date, and
    /// nothing else changed (rows keep the states the card had).
    ///
    /// - Parameter schemaVersion: set to the version the copy had before.
    /// - Throws: ``DatabaseRefusal`` for a damaged, foreign or newer
    ///   database (naming the copy's path); ``SQLiteError`` otherwise.
    init(rescuing path: String, schemaVersion: inout Int64) throws {
        var found: Int64 = 0
        let database = try Database(path: path) { reader in
            do {
                try Schema.migrator.refuseUnknownSchema(reader, requiringCurrent: true)
            } catch let refusal as DatabaseRefusal where refusal.reason.kind == .olderSchema {
                // Upgraded below: the copy is ours to write.
            }
            found = try Migrator.currentVersion(of: reader)
        }
        schemaVersion = found
        // The whole file, once: the card is suspect, and the copy is read only this once.
        try database.checkIntegrity(quick: true)
        try Schema.migrator.migrate(database)
        // Never checked: the copy is read, not written to by payments.
        let limits = try Limits(currency: .eur, perTransaction: Money(minorUnits: 1, currency: .eur), dailyPerTerminal: Money(minorUnits: 1, currency: .eur),
                                perOfflineTransaction: Money(minorUnits: 1, currency: .eur), offlineQueuedTotal: Money(minorUnits: 1, currency: .eur),
                                maxOfflineAge: 1)
        self.init(database: database, limits: limits, till: nil, clock: SystemClock(), zone: .system, online: NoHost())
    }

    private init(database: Database, limits: Limits, till: TillSettings?, clock: any WallClock, zone: LocalTime.Zone,
                 online: any OnlineEvidence) {
        self.database = database
        self.accounts = AccountCache(database: database, clock: clock)
        self.operators = OperatorStore(database: database)
        self.journal = JournalStore(database: database)
        self.outbox = OutboxStore(database: database, accounts: accounts, limits: limits, zone: zone)
        self.ledger = SyncLedger(database: database, clock: clock)
        let tillSettings = till ?? .standard(for: limits.currency)
        self.tills = TillStore(database: database, clock: clock, settings: tillSettings)
        self.printQueue = PrintQueueStore(database: database)
        self.retention = RetentionLedger(database: database)
        self.path = database.path
        self.limits = limits
        self.tillSettings = tillSettings
        self.clock = clock
        self.onlineEvidence = online
    }

    /// Opens the store at `<directory>/teller.db`, creating the directory (mode 0700) if needed.
    public init(dataDirectory: String, limits: Limits, till: TillSettings? = nil, clock: any WallClock = SystemClock(), zone: LocalTime.Zone = .system,
                online: any OnlineEvidence = NoHost()) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try self.init(path: dataDirectory.appendingPathComponent(TellerStore.fileName), limits: limits, till: till, clock: clock, zone: zone,
                      online: online)
    }

    /// Runs `PRAGMA integrity_check`, which compares every index with its
    /// table, and then compares the counts that schema 7's and 8's triggers
    /// keep (rows per state, rejections and reviews no one acknowledged)
    /// with the outbox's rows; "ok" when both agree.
    public func integrityReport() throws -> String {
        let report = try database.integrityReport()
        guard report == "ok" else { return report }
        let differences = try translating { try outbox.countDifferences() }
        return differences.isEmpty ? "ok" : differences.joined(separator: "\n")
    }

    /// Runs `PRAGMA quick_check`; "ok" when sound.
    public func quickCheckReport() throws -> String {
        try database.query("PRAGMA quick_check") { $0.text(0) }.joined(separator: "\n")
    }

    /// Runs `body` on the store's connection, inside the actor.
    func withDatabase<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
        try body(database)
    }

    /// The background check found the file damaged (``DatabaseCheck``):
    /// from now on this connection writes nothing (`query_only`), and each
    /// write refused says why. What is committed stays readable.
    public func damageFound(_ findings: String) {
        guard damage == nil else { return }
        damage = findings
        do {
            try database.execute("PRAGMA query_only=ON")
        } catch {
            Log.error("storage: cannot stop writing to the damaged \(path): \(error)")
        }
    }

    /// Translates storage failures into the domain's error at the border.
    func translating<T>(_ body: () throws -> T) throws(TellerError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError where damage != nil {
            throw .storage(StorageFailure(kind: .failing, detail: "\(path) is damaged (\(damage ?? "")) and takes no more writes: \(error)"))
        } catch let error as TellerError {
            throw error
        } catch let error as LimitViolation {
            throw .limit(error)
        } catch let error as SQLiteError {
            throw .storage(StorageFailure(error))
        } catch {
            throw .storage(detail: String(describing: error))
        }
    }
}
