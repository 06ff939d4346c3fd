import FoundationEssentials
import ProcessHarness
import TellerCore
import TellerData
import SQLite

/// `teller-bench enqueue [--rows N] [--round N] [--dir DIR]`: durable outbox
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
let enqueueBenchmark = Benchmark(name: "enqueue", summary: "durable outbox enqueue vs raw commit") { arguments in
    var rows = 1000
    var round = 1
    var parent = TemporaryDirectory.systemPath
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--rows": rows = Int(rest.popFirst() ?? "") ?? rows
        case "--round": round = max(1, Int(rest.popFirst() ?? "") ?? round)
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
    let raw = try Database(path: directory.file("raw.db"))
    try raw.execute("CREATE TABLE raw (id INTEGER PRIMARY KEY AUTOINCREMENT, k TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, payload BLOB NOT NULL)")
    let request = try TransactionRequest(kind: .deposit, account: try IBAN("DE89370400440532013000"), amount: Money(minorUnits: 12_345, currency: eur), operatorID: OperatorID("1001")!)
    let payload = [UInt8](repeating: 0x7B, count: 220)
    let rawKeys = (0..<rows).map { _ in UUID().uuidString.lowercased() }

    var enqueue = Samples()
    var commit = Samples()
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
        done += count
    }
    report("enqueue_median_ms", enqueue.median)
    report("enqueue_p99_ms", enqueue.p99)
    report("raw_commit_median_ms", commit.median)
    report("enqueue_vs_raw", enqueue.median / commit.median)
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
