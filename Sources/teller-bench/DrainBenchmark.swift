import FoundationEssentials
import ProcessHarness
import TellerCore
import TellerData
import HostTransport

/// `teller-bench drain [--rows N] [--host-script PATH] [--dir DIR]`: the sync
/// engine draining N queued transactions to the reference host on loopback,
/// against the host's own ceiling measured in the same run by
/// deploy/reference-host/ceiling-client posting the same frozen bodies under
/// fresh keys over one keep-alive connection. Five rounds of each alternate;
/// the ceiling client's start-up, token and warm-up are not timed. Run from
/// the repository root (or pass --host-script).
let drainBenchmark = Benchmark(name: "drain", summary: "outbox drain to the reference host vs the host's own ceiling") { arguments in
    var rows = 500
    var hostScript = FileManager.default.currentDirectoryPath + "/deploy/reference-host/teller-host"
    var parent = TemporaryDirectory.systemPath
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--rows": rows = Int(rest.popFirst() ?? "") ?? rows
        case "--host-script": hostScript = rest.popFirst() ?? hostScript
        case "--dir": parent = rest.popFirst() ?? parent
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    let ceilingClient = hostScript.lastIndex(of: "/").map { String(hostScript[...$0]) + "ceiling-client" } ?? "ceiling-client"
    for tool in [hostScript, ceilingClient] where !FileManager.default.isExecutableFile(atPath: tool) {
        throw BenchmarkError.failed("\(tool) not found: run from the repository root or pass --host-script")
    }
    // The host keeps it (its data file lives there) until the host is released.
    let directory = try TemporaryDirectory("teller-bench-drain", in: parent)
    let host = try await ReferenceHost(directory: directory, script: hostScript).start()

    let eur = Currency.eur
    let huge = Money(minorUnits: 1 << 60, currency: eur)
    let limits = try Limits(currency: eur, perTransaction: huge, dailyPerTerminal: huge, perOfflineTransaction: huge, offlineQueuedTotal: huge, maxOfflineAge: 1e9)
    let terminalDirectory = directory.file("terminal")
    let store = try TellerStore(dataDirectory: terminalDirectory, limits: limits)
    let connection = HostConnection(configuration: try HostConfiguration(baseURL: host.url))
    let vault = TokenVault(connection: connection, credentials: TerminalCredentials(terminalID: "T-0001", secret: "demo-secret-T-0001"), dataDirectory: terminalDirectory)
    let engine = SyncEngine(store: store, host: HostClient(connection: connection, vault: vault))
    // Anna Schmidt's account in the demo seed.
    let account = try IBAN("DE54500105170426397158")
    func enqueue(_ count: Int) async throws -> [IdempotencyKey] {
        var keys: [IdempotencyKey] = []
        for index in 0..<count {
            let request = try TransactionRequest(kind: .deposit, account: account, amount: Money(minorUnits: 100 + Int64(index % 900), currency: eur), operatorID: OperatorID("1001")!)
            keys.append(try await store.enqueue(request).key)
        }
        return keys
    }

    // Untimed warm-up, as the ceiling client's: token, connection, statements.
    _ = try await enqueue(20)
    await engine.drainOnce()

    // Rounds of both alternate, so a neighbour's load lands on both sides of the ratio.
    let rounds = 5
    var drainSeconds = 0.0
    var ceilingSeconds = 0.0
    var done = 0
    for round in 0..<rounds {
        let count = rows / rounds + (round < rows % rounds ? 1 : 0)
        let keys = try await enqueue(count)
        let start = ContinuousClock.now
        await engine.drainOnce()
        drainSeconds += (ContinuousClock.now - start).milliseconds / 1000
        done += count
        let confirmed = try await store.summary().countsByState[.confirmed] ?? 0
        guard confirmed == done + 20 else { throw BenchmarkError.failed("the drain confirmed \(confirmed - 20) of \(done) rows") }

        var bodies = Data()
        for key in keys {
            guard let payload = try await store.frozenPayload(for: key) else { throw BenchmarkError.failed("row \(key) has no payload") }
            bodies.append(contentsOf: payload)
            bodies.append(0x0A)
        }
        let ceilingRun = try await ChildProcess.run(ceilingClient, ["--url", host.url.absoluteString, "--count", String(count), "--warmup", "5", "--bodies", "-"],
                                                    stdin: bodies, timeout: .seconds(600))
        guard ceilingRun.status == 0 else { throw BenchmarkError.failed("\(ceilingClient) exited \(ceilingRun.status): \(ceilingRun.stderr)") }
        let output = ceilingRun.stdout
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("host_ceiling_tx_per_s: ") }),
              let rate = Double(line.dropFirst("host_ceiling_tx_per_s: ".count)), rate > 0 else {
            throw BenchmarkError.failed("ceiling-client printed no rate: \(output)")
        }
        ceilingSeconds += Double(count) / rate
    }
    let drainRate = Double(rows) / drainSeconds
    let ceiling = Double(rows) / ceilingSeconds
    report("drain_tx_per_s", drainRate)
    report("host_ceiling_tx_per_s", ceiling)
    report("drain_vs_ceiling", drainRate / ceiling)
    await host.stop()
}
