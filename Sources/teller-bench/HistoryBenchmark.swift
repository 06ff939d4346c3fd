import SystemCalls
import FoundationEssentials
import ProcessHarness
import TellerCore
import TellerData
import TellerConfiguration

/// `teller-bench history`: what years at a busy counter cost, as ratios
/// against the empty database in the same run. See `historyUsage`.
let historyBenchmark = Benchmark(name: "history", summary: "start-up, enqueue, status, queue and journal verify after 0, 1 and 5 years; size; RSS with 2,000 queued",
                                 usage: historyUsage) { arguments in
    var years = [0.0, 1, 5]
    var perDay = 200
    var cache = FileManager.default.currentDirectoryPath + "/.build/bench-history"
    var teller: String?
    var retention = Configuration.defaultRetentionDays
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--years": years = (rest.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
        case "--per-day": perDay = Int(rest.popFirst() ?? "") ?? perDay
        case "--cache": cache = rest.popFirst() ?? cache
        case "--teller": teller = rest.popFirst()
        case "--retention-days": retention = Int(rest.popFirst() ?? "") ?? retention
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    let binary = teller ?? ".build/release/teller"
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw BenchmarkError.failed("no \(binary): swift build -c release --static-swift-stdlib --product teller (or pass --teller PATH)")
    }
    guard years.first == 0 else { throw BenchmarkError.failed("--years must start with 0: every figure is a ratio against the empty database") }
    let work = try TemporaryDirectory("teller-bench-history", in: TemporaryDirectory.systemPath)
    defer { withExtendedLifetime(work) {} }
    let config = work.file("teller.conf")
    // A provisioned, offline-only terminal: the sign-in, as at a counter (without a terminal id the terminal shows its technician notice).
    try Data("# teller-bench history\nterminal_id = T-BENCH\n".utf8).write(to: URL(fileURLWithPath: config))

    // One counter day: the baseline of the figures an empty database cannot
    // give (the queue screen shows a day's rows, a day's journal is checked).
    let daySource = try await HistoryDatabase.built(days: 1, perDay: perDay, retention: retention, in: cache)
    let day = try await HistoryFigures.measure(daySource, teller: binary, config: config, in: work.file("1d"))
    var measured: [(name: String, figures: HistoryFigures, data: String)] = []
    for span in years {
        let days = Int((span * 365).rounded())
        let source = try await HistoryDatabase.built(days: days, perDay: perDay, retention: retention, in: cache)
        let figures = try await HistoryFigures.measure(source, teller: binary, config: config, in: work.file("\(days)d"), day: daySource)
        measured.append((span == 0 ? "empty" : "\(span.fixed(decimals: span.rounded() == span ? 0 : 1))y", figures, work.file("\(days)d")))
    }
    // Start-up, the running terminal's status and `teller status`, the figures
    // most exposed to this shared machine's drift, are taken again in rounds
    // that visit every database in turn, so a slow minute falls on all of them alike.
    let rounds = try await HistoryFigures.startRounds(measured.map(\.data), teller: binary, config: config)
    var empty: HistoryFigures?
    for (index, entry) in measured.enumerated() {
        var figures = entry.figures
        (figures.startMilliseconds, figures.runningStatusMilliseconds, figures.statusMilliseconds) = rounds[index]
        figures.print(entry.name, against: empty, day: day)
        if empty == nil { empty = figures }
    }
    report("retention_days", Double(retention))
    // The resident set with a week offline queued, against the same terminal with nothing queued.
    let queued = try await HistoryDatabase.built(days: 10, perDay: perDay, hostDown: true, retention: retention, in: cache)
    let idle = try await HistoryFigures.residentSet(try await HistoryDatabase.built(days: 0, perDay: perDay, retention: retention, in: cache),
                                                    teller: binary, config: config, in: work.file("rss-empty"))
    let busy = try await HistoryFigures.residentSet(queued, teller: binary, config: config, in: work.file("rss-queued"))
    report("rss_empty_queue_mb", idle)
    report("rss_2000_queued_mb", busy)
    report("rss_2000_queued_vs_empty", busy / idle)
}

/// The databases, built once per schema and shape through the store's own
/// write path (SyntheticHistory) and kept in the cache folder: five years
/// take minutes to write.
enum HistoryDatabase {
    /// Writes `days` as the terminal lives them: each night the store removes
    /// what is past `retention` days and settled, as the running terminal's
    /// pruner does (hourly there).
    static func built(days: Int, perDay: Int, hostDown: Bool = false, retention: Int, in cache: String) async throws -> String {
        let name = "v\(TellerStore.schemaVersion)-\(days)d-\(perDay)-\(hostDown ? "down" : "answers")-keep\(retention)"
        let folder = cache + "/" + name
        let database = folder + "/" + TellerStore.fileName
        if FileManager.default.fileExists(atPath: folder + "/.complete") { return folder }
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        printError("teller-bench history: writing \(days) days of \(perDay) payments into \(database) (once; kept for later runs)\n")
        let started = ContinuousClock.now
        // From local midnight `days` days ago, so the last day written is yesterday.
        let now = LocalTime(Date(), in: .system)
        let sinceMidnight = Double(now.hour * 3600 + now.minute * 60 + now.second)
        let clock = SyntheticHistory.Clock(Date().addingTimeInterval(-Double(days) * 86_400 - sinceMidnight))
        do {
            let store = try TellerStore(path: database, limits: try SyntheticHistory.limits, clock: clock)
            store.configurePrinting(receiptCopies: 1)
            let history = try SyntheticHistory(store: store, clock: clock)
            for _ in 0..<days {
                _ = try await history.write(days: 1, paymentsPerDay: perDay, host: hostDown ? .down : .answers)
                while try await !store.pruneStep(retentionDays: retention).isDone {}
            }
        }
        printError("teller-bench history: \(name) written in \(Int((ContinuousClock.now - started).milliseconds / 1000)) s\n")
        try Data().write(to: URL(fileURLWithPath: folder + "/.complete"))
        return folder
    }
}

struct HistoryFigures {
    var startMilliseconds = 0.0
    var enqueueMedian = 0.0
    var enqueueP99 = 0.0
    var runningStatusMilliseconds = 0.0
    var queueMilliseconds = 0.0
    /// The one counter day's queue read, taken in turn with this one's (``measure(_:teller:config:in:day:)``).
    var queueDayMilliseconds = 0.0
    var statusMilliseconds = 0.0
    var verifyAllMilliseconds = 0.0
    var verifyDayMilliseconds = 0.0
    var megabytes = 0.0

    func print(_ name: String, against empty: HistoryFigures?, day: HistoryFigures) {
        let pairs: [(String, Double, Double?)] = [
            ("first_frame_ms", startMilliseconds, empty?.startMilliseconds),
            ("enqueue_p50_ms", enqueueMedian, empty?.enqueueMedian),
            ("enqueue_p99_ms", enqueueP99, empty?.enqueueP99),
            ("running_status_ms", runningStatusMilliseconds, empty?.runningStatusMilliseconds),
            ("queue_screen_ms", queueMilliseconds, nil),
            ("status_ms", statusMilliseconds, empty?.statusMilliseconds),
            ("journal_verify_all_ms", verifyAllMilliseconds, empty?.verifyAllMilliseconds),
            ("journal_verify_day_ms", verifyDayMilliseconds, nil),
            ("database_mb", megabytes, nil),
        ]
        for (key, value, base) in pairs {
            report("\(name)_\(key)", value)
            if let base, base > 0 { report("\(name)_\(key.hasSuffix("_ms") ? String(key.dropLast(3)) : key)_vs_empty", value / base) }
        }
        guard empty != nil else { return }
        report("\(name)_queue_screen_vs_one_day", queueMilliseconds / (queueDayMilliseconds > 0 ? queueDayMilliseconds : day.queueMilliseconds))
        report("\(name)_journal_verify_day_vs_one_day", verifyDayMilliseconds / day.verifyDayMilliseconds)
    }

    /// `teller run` to its first frame, `ctl status` against it and `teller status`, for each
    /// of `dataDirectories` (the copies ``measure(_:teller:config:in:)``
    /// made) in turn, `rounds` times: the medians, in the order given.
    static func startRounds(_ dataDirectories: [String], rounds: Int = 7, teller: String, config: String) async throws
        -> [(start: Double, runningStatus: Double, status: Double)] {
        var starts = Array(repeating: Samples(), count: dataDirectories.count)
        var statuses = starts
        var commands = starts
        for round in 0..<rounds {
            for (index, directory) in dataDirectories.enumerated() {
                let (start, status) = try await startOnce(directory + "/data", teller: teller, config: config, runtime: directory + "/round-\(round)")
                starts[index].append(start)
                status.forEach { statuses[index].append($0) }
                let asked = ContinuousClock.now
                let answer = try await ChildProcess.run(teller, ["status", "--config", config, "--data-dir", directory + "/data"])
                guard answer.status == 0 else { throw BenchmarkError.failed("teller status: \(answer.stderr)") }
                commands[index].append((ContinuousClock.now - asked).milliseconds)
            }
        }
        return (0..<dataDirectories.count).map { (starts[$0].median, statuses[$0].median, commands[$0].median) }
    }

    /// One cold start of `teller run` on `data` to its first frame, then three `ctl status`; the milliseconds of each.
    private static func startOnce(_ data: String, teller: String, config: String, runtime: String) async throws -> (Double, [Double]) {
        let started = ContinuousClock.now
        let terminal = try ChildProcess(teller, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                                 "--data-dir", data, "--runtime-dir", runtime])
        try await terminal.waitForStderr(containing: "ready:")
        let start = (ContinuousClock.now - started).milliseconds
        var statuses: [Double] = []
        for _ in 0..<3 {
            let asked = ContinuousClock.now
            let answer = try await ChildProcess.run(teller, ["ctl", "--socket", runtime + "/control.sock", "status"])
            guard answer.status == 0 else { throw BenchmarkError.failed("teller ctl status: \(answer.stderr)") }
            statuses.append((ContinuousClock.now - asked).milliseconds)
        }
        await terminal.stop()
        return (start, statuses)
    }

    /// Every figure of one database, each on a private copy of it; with
    /// `day`, the queue screen's read is taken in turn with that of a copy of
    /// the one counter day, read for read, so the ratio is of the same minute.
    static func measure(_ source: String, teller: String, config: String, in directory: String, day: String? = nil) async throws -> HistoryFigures {
        var figures = HistoryFigures()
        let data = try copy(source, to: directory + "/data")
        figures.megabytes = Double(FileStatus(path: data + "/" + TellerStore.fileName)?.size ?? 0) / 1_048_576

        // teller run to its first frame ("ready:") and the running terminal's
        // status as ctl and the fleet's gate ask it: the medians of five cold starts.
        var starts = Samples()
        var runningStatus = Samples()
        for run in 0..<5 {
            let (start, statuses) = try await startOnce(data, teller: teller, config: config, runtime: directory + "/run-\(run)")
            starts.append(start)
            statuses.forEach { runningStatus.append($0) }
        }
        figures.startMilliseconds = starts.median
        figures.runningStatusMilliseconds = runningStatus.median

        // The CLI: status, and the journal's chain, whole and for one day.
        func timed(_ arguments: [String], runs: Int = 5, accepting codes: Set<Int32> = [0]) async throws -> Double {
            var samples = Samples()
            for _ in 0..<runs {
                let started = ContinuousClock.now
                let result = try await ChildProcess.run(teller, arguments + ["--config", config, "--data-dir", data], timeout: .seconds(600))
                guard codes.contains(result.status) else { throw BenchmarkError.failed("teller \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
                samples.append((ContinuousClock.now - started).milliseconds)
            }
            return samples.median
        }
        figures.statusMilliseconds = try await timed(["status"])
        figures.verifyAllMilliseconds = try await timed(["journal", "verify"], runs: 3)
        figures.verifyDayMilliseconds = try await timed(["journal", "verify", "--day", yesterday()], runs: 5)

        // In-process on the same copy: the queue screen's read, then enqueues at the counter.
        let store = try TellerStore(dataDirectory: data, limits: try SyntheticHistory.limits)
        let dayStore = try day.map { try TellerStore(dataDirectory: try copy($0, to: directory + "/queue-day"), limits: try SyntheticHistory.limits) }
        var queue = Samples(), queueDay = Samples()
        for _ in 0..<(dayStore == nil ? 10 : 40) {
            _ = try await queue.measure { try await store.entries() }
            if let dayStore { _ = try await queueDay.measure { try await dayStore.entries() } }
        }
        figures.queueMilliseconds = queue.median
        if dayStore != nil { figures.queueDayMilliseconds = queueDay.median }
        var enqueue = Samples()
        let request = try TransactionRequest(kind: .deposit, account: try IBAN("DE89370400440532013000"), amount: Money(minorUnits: 1_234, currency: .eur),
                                             operatorID: OperatorID("1001")!)
        for _ in 0..<200 { _ = try await enqueue.measure { try await store.enqueue(request) } }
        figures.enqueueMedian = enqueue.median
        figures.enqueueP99 = enqueue.p99
        return figures
    }

    /// VmRSS of `teller run` on a copy of `source`, after its first frame, the queue read by ctl status, and a settle.
    static func residentSet(_ source: String, teller: String, config: String, in directory: String) async throws -> Double {
        let data = try copy(source, to: directory + "/data")
        let terminal = try ChildProcess(teller, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                                 "--data-dir", data, "--runtime-dir", directory + "/run"])
        try await terminal.waitForStderr(containing: "ready:")
        _ = try await ChildProcess.run(teller, ["ctl", "--socket", directory + "/run/control.sock", "status"])
        try await Task.sleep(for: .seconds(2))
        let megabytes = try terminal.statusMegabytes("VmRSS")
        await terminal.stop()
        return megabytes
    }

    private static func copy(_ source: String, to data: String) throws -> String {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + "/" + TellerStore.fileName + suffix) {
            try FileManager.default.copyItem(atPath: source + "/" + TellerStore.fileName + suffix, toPath: data + "/" + TellerStore.fileName + suffix)
        }
        return data
    }
}

/// Yesterday on this machine's wall clock: the last day the history wrote.
private func yesterday() -> String {
    let t = LocalTime(Date().addingTimeInterval(-86_400), in: .system)
    return "\(t.year.zeroPadded(4))-\(t.month.zeroPadded(2))-\(t.day.zeroPadded(2))"
}

private let historyUsage = """
    Years of a busy counter, written once through the store's own write path
    (SyntheticHistory: each day a sign-in, a till opened and closed, 200
    payments answered by the bank, their receipts printed) and kept in
    .build/bench-history, each night pruned under retention_days as the
    running terminal prunes; each figure is measured on a private copy and
    reported with its ratio against the empty database of the same run:

      NAME_first_frame_ms           teller run (offscreen) to its first frame, median of 5
      NAME_enqueue_p50_ms, _p99_ms  TellerStore.enqueue on that database, 200 deposits
      NAME_running_status_ms        teller ctl status against the running terminal
      NAME_queue_screen_ms          the queue screen's read (OutboxPort.entries), with its
                                    ratio against one counter day, read in turn with it (an empty queue shows nothing)
      NAME_status_ms                teller status (start-up, ctl status and status in rounds over every database)
      NAME_journal_verify_all_ms    teller journal verify
      NAME_journal_verify_day_ms    teller journal verify --day (yesterday), with its ratio
                                    against the same check on a database of one day
      NAME_database_mb              teller.db's size
      rss_empty_queue_mb, rss_2000_queued_mb, rss_2000_queued_vs_empty
                                    VmRSS of teller run after its first frame and a
                                    ctl status, with 10 days of 200 payments queued
                                    (the bank down) against an empty database

    NAME is empty, 1y, 5y. Goals (issue 40): at 5 years start-up, enqueue,
    status and the queue screen at most 1.2 x empty; the resident set with
    2,000 queued at most 1.2 x; journal verify of one day independent of
    history; the size bounded by retention_days, not by the years.

    options:
      --years A,B,...  spans in years, starting with 0 (default 0,1,5)
      --per-day N      payments a day (default 200)
      --cache DIR      where the databases are kept (default .build/bench-history)
      --teller PATH    the teller binary (default .build/release/teller)
      --retention-days N  as teller.conf's retention_days (default its default)
    """
