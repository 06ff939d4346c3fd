import FoundationEssentials
import ProcessHarness
import TellerCore
import TellerData
import SQLite

/// `teller-bench enqueue [--rows N] [--round N] [--receipts N] [--dir DIR]`: durable outbox
/// enqueue latency against the floor of a raw single-row insert+commit with
/// the same pragmas on the same filesystem. Rounds of both alternate so
/// machine noise lands on both sides of the ratio: by default one of each
/// (a shared disk's latency changes within the 50-row rounds used before,
/// which `--round 50` still gives), the side that goes first alternating.
///
/// The store is built as the terminal builds it (LiveData: a TrustedClock),
/// so the timed enqueue is the terminal's. The raw side times only SQLite:
/// its unique keys are made before the clock starts, so key generation (the
/// terminal's cost, which the ratio should show) does not pad the baseline.
///
/// A third side says how much of the difference is SQLite's own: the rows
/// an enqueue writes (its outbox row, journal entry and receipt job, with
/// the schema's indexes and triggers), written by plain SQL in one
/// transaction to a database of the same schema, every value made before
/// the clock starts. `enqueue_vs_same_rows` is then what Teller's code
/// adds (its reads for the limits, the till and the chain, the hashing and
/// the encoding), and `same_rows_vs_raw` what the rows themselves cost.
let enqueueBenchmark = Benchmark(name: "enqueue", summary: "durable outbox enqueue vs raw commit") { arguments in
    var rows = 1000
    var round = 1
    // Receipts each payment queues: 0 as with `printer = none`, the default; 1 as with a printer.
    var receipts = 0
    var parent = TemporaryDirectory.systemPath
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--rows": rows = Int(rest.popFirst() ?? "") ?? rows
        case "--round": round = max(1, Int(rest.popFirst() ?? "") ?? round)
        case "--receipts": receipts = max(0, Int(rest.popFirst() ?? "") ?? receipts)
        case "--dir": parent = rest.popFirst() ?? parent
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    let directory = try TemporaryDirectory("teller-bench-enqueue", in: parent)
    // Removed when the run ends, not after its last mention below.
    defer { withExtendedLifetime(directory) {} }

    let eur = Currency.eur
    let huge = Money(minorUnits: 1 << 60, currency: eur)
    let limits = try Limits(currency: eur, perTransaction: huge, dailyPerTerminal: huge, perOfflineTransaction: huge, offlineQueuedTotal: huge, maxOfflineAge: 1e9)
    // As LiveData: a floor below the wall clock, which therefore stamps the rows.
    let clock = TrustedClock(floor: Date(timeIntervalSinceNow: -86_400))
    let store = try TellerStore(dataDirectory: directory.path, limits: limits, clock: clock)
    store.configurePrinting(receiptCopies: receipts)
    let raw = try Database(path: directory.file("raw.db"))
    try raw.execute("CREATE TABLE raw (id INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, payload BLOB NOT NULL)")
    let request = try TransactionRequest(kind: .deposit, account: try IBAN("DE89370400440532013000"), amount: Money(minorUnits: 12_345, currency: eur), operatorID: OperatorID("1001")!)
    let payload = [UInt8](repeating: 0x7B, count: 220)
    let rawKeys = (0..<rows).map { _ in UUID().uuidString.lowercased() }
    let sameRows = try await SameRows(directory: directory.file("same"), limits: limits, clock: clock, request: request, receipts: receipts, count: rows)

    var enqueue = Samples()
    var commit = Samples()
    var same = Samples()
    func enqueueOne() async throws {
        _ = try await enqueue.measure { try await store.enqueue(request) }
    }
    func commitOne(_ index: Int) throws {
        let values: [SQLValue] = [.text(rawKeys[index]), .integer(12_345), .blob(payload)]
        try commit.measure {
            try raw.run("INSERT INTO raw (k, amount, payload) VALUES (?, ?, ?)", values)
        }
    }
    var done = 0
    while done < rows {
        let count = min(round, rows - done)
        // Which side goes first alternates, so neither always follows the other's fsync.
        let enqueueFirst = (done / round).isMultiple(of: 2)
        if !enqueueFirst { for index in done..<done + count { try commitOne(index) } }
        for _ in 0..<count { try await enqueueOne() }
        if enqueueFirst { for index in done..<done + count { try commitOne(index) } }
        for index in done..<done + count { try same.measure { try sameRows.write(index) } }
        done += count
    }
    report("enqueue_median_ms", enqueue.median)
    report("enqueue_p99_ms", enqueue.p99)
    report("raw_commit_median_ms", commit.median)
    report("same_rows_median_ms", same.median)
    report("enqueue_vs_raw", enqueue.median / commit.median)
    report("enqueue_vs_same_rows", enqueue.median / same.median)
    report("same_rows_vs_raw", same.median / commit.median)
}

/// The rows one enqueue writes, ready to be written by plain SQL into a
/// database of the terminal's schema: an outbox row with a real frozen
/// body, the journal entry continuing the chain and `receipts` print jobs.
/// Everything, keys and hashes included, is made before any is timed.
private struct SameRows {
    let database: Database
    let outbox: [[SQLValue]]
    let journal: [[SQLValue]]
    let printJob: [SQLValue]
    let receipts: Int

    init(directory: String, limits: Limits, clock: TrustedClock, request: TransactionRequest, receipts: Int, count: Int) async throws {
        // The schema as the terminal makes it; the sample entry's bodies are the real ones.
        let store = try TellerStore(dataDirectory: directory, limits: limits, clock: clock)
        let sample = try await store.enqueue(request)
        guard let body = try await store.frozenPayload(for: sample.key), let entry = try await store.journalEntries(from: 1, limit: 10).last else {
            throw BenchmarkError.failed("the sample enqueue left no frozen body or journal entry")
        }
        self.receipts = receipts
        database = try Database(path: directory + "/" + TellerStore.fileName)
        let now = Date().millisecondsSince1970
        guard let day = try database.queryText("SELECT local_day FROM outbox WHERE idempotency_key = ?", [.text(sample.key.rawValue)]) else {
            throw BenchmarkError.failed("the sample row has no local day")
        }
        var outbox: [[SQLValue]] = []
        var journal: [[SQLValue]] = []
        var previous = entry.hash
        for index in 0..<count {
            let key = UUID().uuidString.lowercased()
            outbox.append([.text(key), .text(request.kind.rawValue), .text(request.account.electronic), .null, .integer(request.amount.minorUnits),
                           .text(request.amount.currency.code), .text(request.operatorID.rawValue), .integer(now), .text(day), .blob(body),
                           .text("queued"), .integer(now)])
            let hash = (0..<4).map { _ in UInt64.random(in: .min ... .max).zeroPadded(16, radix: 16) }.joined()
            journal.append([.integer(entry.sequence + 1 + Int64(index)), .integer(now), .text(entry.kind.rawValue), .text(entry.operatorID.rawValue),
                            .text(entry.payload.replacing(sample.key.rawValue, with: key)), .text(previous), .text(hash)])
            previous = hash
        }
        self.outbox = outbox
        self.journal = journal
        printJob = [.text("receipt"), .text(sample.key.rawValue), .text("en"), .text(request.operatorID.rawValue), .integer(now)]
    }

    func write(_ index: Int) throws {
        try database.inTransaction(.immediate) {
            try database.run("""
                INSERT INTO outbox (idempotency_key, kind, account_iban, counterparty_iban, amount_minor, currency,
                                    operator_id, created_at_ms, local_day, payload, state, updated_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, outbox[index])
            try database.run("""
                INSERT INTO journal (sequence, time_ms, kind, operator_id, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, journal[index])
            for _ in 0..<receipts {
                try database.run("""
                    INSERT INTO print_jobs (document, subject, language, requested_by, created_at_ms) VALUES (?, ?, ?, ?, ?)
                    """, printJob)
            }
        }
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case unknownOption(String)
    case failed(String)

    var description: String {
        switch self {
        case .unknownOption(let option): "unknown option '\(option)'"
        case .failed(let message): message
        }
    }
}
