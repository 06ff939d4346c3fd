import SystemCalls
import FoundationEssentials
import ProcessHarness
import TellerCore
import TellerData
import SQLite
import HostTransport

/// `teller-bench writes [--rows N]`: what one deposit writes to storage,
/// offline (the enqueue's commit) and online (the enqueue, then the sync
/// engine sending it to the reference host and recording the answer, one
/// deposit per drain as at the counter), against SQLite's own floor for
/// the same rows. See `writesUsage`.
let writesBenchmark = Benchmark(name: "writes", summary: "bytes, write calls and fsyncs per deposit, offline and online, against SQLite's floor",
                                usage: writesUsage) { arguments in
    var rows = 200
    var inner: (mode: WritesMode, floor: Bool)?
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--rows": rows = Int(rest.popFirst() ?? "") ?? rows
        case "--inner":
            guard let mode = rest.popFirst().flatMap(WritesMode.init(rawValue:)) else { throw BenchmarkError.failed("--inner needs offline or online") }
            inner = (mode, inner?.floor ?? false)
        case "--floor": inner = (inner?.mode ?? .offline, true)
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    if let inner { return try await WritesRun.deposits(rows, mode: inner.mode, measuringFloor: inner.floor) }

    // Each figure comes from a process of its own, so one mode's setup and
    // checkpoints do not land in the other's; the fsyncs from strace around
    // two runs that differ only in the number of deposits.
    let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let me = CommandLine.arguments[0]
    for mode in WritesMode.allCases {
        let measured = try await WritesRun.child(me, rows: rows, mode: mode, floor: false)
        let floor = try await WritesRun.child(me, rows: rows, mode: mode, floor: true)
        let perDeposit = { (value: Double) in value / Double(rows) }
        let bytes = perDeposit(measured["write_bytes"] ?? 0)
        let floorBytes = perDeposit((floor["wal_frames"] ?? 0) * Double(2 * 4096 + 24))
        report("\(mode)_commits_per_deposit", perDeposit(floor["commits"] ?? 0))
        report("\(mode)_pages_per_deposit", perDeposit(floor["wal_frames"] ?? 0))
        report("\(mode)_bytes_per_deposit", bytes)
        report("\(mode)_floor_bytes_per_deposit", floorBytes)
        report("\(mode)_bytes_vs_floor", floorBytes > 0 ? bytes / floorBytes : 0)
        report("\(mode)_write_calls_per_deposit", perDeposit(measured["write_calls"] ?? 0))
        if let strace {
            let many = try await WritesRun.fsyncs(strace, me, rows: rows, mode: mode)
            let none = try await WritesRun.fsyncs(strace, me, rows: 0, mode: mode)
            report("\(mode)_fsyncs_per_deposit", perDeposit(Double(many - none)))
        } else {
            printError("teller-bench writes: no strace, so no fsyncs_per_deposit (apt-get install strace)\n")
        }
    }
}

enum WritesMode: String, CaseIterable, CustomStringConvertible {
    case offline, online
    var description: String { rawValue }
}

private enum WritesRun {
    /// Runs `rows` deposits in this process and prints what they wrote:
    /// the bytes and write calls from /proc/self/io, and with `measuringFloor`
    /// the WAL frames they appended (a reader's open snapshot keeps every
    /// checkpoint from reusing the log, so its growth counts every page each
    /// commit wrote) and the commits.
    static func deposits(_ rows: Int, mode: WritesMode, measuringFloor: Bool) async throws {
        let directory = try TemporaryDirectory("teller-bench-writes", in: TemporaryDirectory.systemPath)
        defer { withExtendedLifetime(directory) {} }
        let eur = Currency.eur
        let huge = Money(minorUnits: 1 << 60, currency: eur)
        let limits = try Limits(currency: eur, perTransaction: huge, dailyPerTerminal: huge, perOfflineTransaction: huge, offlineQueuedTotal: huge, maxOfflineAge: 1e9)
        let data = directory.file("terminal")
        let store = try TellerStore(dataDirectory: data, limits: limits, clock: TrustedClock(floor: Date(timeIntervalSinceNow: -86_400)))
        var host: ReferenceHost?
        var engine: SyncEngine?
        if mode == .online {
            let started = try await ReferenceHost(directory: directory, script: FileManager.default.currentDirectoryPath + "/deploy/reference-host/teller-host").start()
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: started.url))
            let vault = TokenVault(connection: connection, credentials: TerminalCredentials(terminalID: "T-0001", secret: "demo-secret-T-0001"), dataDirectory: data)
            engine = SyncEngine(store: store, host: HostClient(connection: connection, vault: vault))
            host = started
        }
        let account = try IBAN("DE54500105170426397158")
        func deposit(_ index: Int) async throws {
            let request = try TransactionRequest(kind: .deposit, account: account, amount: Money(minorUnits: 100 + Int64(index % 900), currency: eur), operatorID: OperatorID("1001")!)
            _ = try await store.enqueue(request)
            await engine?.drainOnce()
        }
        // Untimed warm-up: the token, the connection, the statements.
        for index in 0..<5 { try await deposit(index) }
        let wal = data + "/" + TellerStore.fileName + "-wal"
        var reader: Database?
        if measuringFloor {
            reader = try Database(readingOnly: data + "/" + TellerStore.fileName, besideWriter: true)
            try reader?.execute("BEGIN")
            _ = try reader?.query("SELECT count(*) FROM schema_migrations") { $0.int64(0) }
        }
        let walBefore = FileStatus(path: wal)?.size ?? 0
        let before = try ProcessIO.read()
        for index in 0..<rows { try await deposit(5 + index) }
        let after = try ProcessIO.read()
        let walAfter = FileStatus(path: wal)?.size ?? 0
        try reader?.execute("COMMIT")
        print("write_bytes: \(after.writeBytes - before.writeBytes)")
        print("write_calls: \(after.writeCalls - before.writeCalls)")
        print("wal_frames: \((walAfter - walBefore) / (4096 + 24))")
        print("commits: \(try walCommits(wal, from: walBefore, to: walAfter))")
        await host?.stop()
    }

    /// Commit frames in `wal` between two sizes: a frame header's second
    /// word is the database's size after the commit, 0 on the others.
    static func walCommits(_ wal: String, from start: Int, to end: Int) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: wal)))
        var commits = 0
        var offset = start
        while offset + 24 + 4096 <= min(end, bytes.count) {
            if bytes[offset + 4..<offset + 8].contains(where: { $0 != 0 }) { commits += 1 }
            offset += 24 + 4096
        }
        return commits
    }

    /// The figures a `--inner` child printed, by name.
    static func child(_ me: String, rows: Int, mode: WritesMode, floor: Bool) async throws -> [String: Double] {
        let arguments = ["writes", "--inner", mode.rawValue, "--rows", String(rows)] + (floor ? ["--floor"] : [])
        let run = try await ChildProcess.run(me, arguments, timeout: .seconds(900))
        guard run.status == 0 else { throw BenchmarkError.failed("teller-bench \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)") }
        var figures: [String: Double] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1].filter { $0 != " " }) { figures[String(parts[0])] = value }
        }
        return figures
    }

    /// fsync and fdatasync calls of a `--inner` child with `rows` deposits, counted by strace.
    static func fsyncs(_ strace: String, _ me: String, rows: Int, mode: WritesMode) async throws -> Int {
        let directory = try TemporaryDirectory("teller-bench-writes-strace", in: TemporaryDirectory.systemPath)
        let output = directory.file("strace.txt")
        let run = try await ChildProcess.run(strace, ["-f", "-qq", "-c", "-e", "trace=fsync,fdatasync", "-o", output,
                                                      me, "writes", "--inner", mode.rawValue, "--rows", String(rows)], timeout: .seconds(900))
        guard run.status == 0 else { throw BenchmarkError.failed("strace … teller-bench writes --inner exited \(run.status): \(run.stderr)") }
        // strace -c: "% time  seconds  usecs/call  calls  errors syscall", one line per call counted.
        var calls = 0
        for line in try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let name = fields.last, name == "fsync" || name == "fdatasync", fields.count >= 5, let count = Int(fields[3]) else { continue }
            calls += count
        }
        return calls
    }
}

/// This process's storage I/O so far, from /proc/self/io.
private struct ProcessIO {
    /// Bytes this process sent to the block layer (`write_bytes`): what reaches the card.
    var writeBytes: Int
    /// write(2)-family calls (`syscw`).
    var writeCalls: Int

    static func read() throws -> ProcessIO {
        let text = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1].filter { $0 != " " }) { fields[String(parts[0])] = value }
        }
        guard let bytes = fields["write_bytes"], let calls = fields["syscw"] else { throw BenchmarkError.failed("/proc/self/io has no write_bytes or syscw") }
        return ProcessIO(writeBytes: bytes, writeCalls: calls)
    }
}

private let writesUsage = """
    Per deposit, as the release build writes it (run from the repository root;
    online uses deploy/reference-host/teller-host on loopback):

      MODE_commits_per_deposit         SQLite commits per deposit (commit frames in the log)
      MODE_pages_per_deposit           WAL frames appended per deposit: every page the
                                       commits changed, each commit counted (a reader's
                                       snapshot holds the log from being reused)
      MODE_bytes_per_deposit           write_bytes from /proc/self/io: what reached the
                                       block layer, checkpoints included
      MODE_floor_bytes_per_deposit     SQLite's own floor for the same rows: those pages
                                       twice (the log frame with its header, then the
                                       checkpoint's copy into teller.db)
      MODE_bytes_vs_floor              the two divided: 1.0 is nothing written beyond what
                                       SQLite must write for these pages
      MODE_write_calls_per_deposit     syscw from /proc/self/io
      MODE_fsyncs_per_deposit          fsync + fdatasync, counted by strace over two runs
                                       that differ only in the number of deposits

    MODE is offline (the enqueue's commit only) or online (the enqueue, then the
    sync engine's drain of that one deposit: sending, the answer, its journal entry).

    options:
      --rows N   deposits per run (default 200)
    """
