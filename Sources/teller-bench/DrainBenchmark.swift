import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TellerCore
import TellerData

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
    var parent = NSTemporaryDirectory()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--rows": rows = Int(rest.popFirst() ?? "") ?? rows
        case "--host-script": hostScript = rest.popFirst() ?? hostScript
        case "--dir": parent = rest.popFirst() ?? parent
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    let ceilingClient = ((hostScript as NSString).deletingLastPathComponent as NSString).appendingPathComponent("ceiling-client")
    for tool in [hostScript, ceilingClient] where !FileManager.default.isExecutableFile(atPath: tool) {
        throw BenchmarkError.failed("\(tool) not found: run from the repository root or pass --host-script")
    }
    let directory = (parent as NSString).appendingPathComponent("teller-bench-drain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }

    let host = try BenchHost(script: hostScript, dataFile: (directory as NSString).appendingPathComponent("host.db"))
    defer { host.kill() }

    let eur = Currency.eur
    let huge = Money(minorUnits: 1 << 60, currency: eur)
    let limits = try Limits(currency: eur, perTransaction: huge, dailyPerTerminal: huge, perOfflineTransaction: huge, offlineQueuedTotal: huge, maxOfflineAge: 1e9)
    let terminalDirectory = (directory as NSString).appendingPathComponent("terminal")
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
        let start = DispatchTime.now().uptimeNanoseconds
        await engine.drainOnce()
        drainSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        done += count
        let confirmed = try await store.summary().countsByState[.confirmed] ?? 0
        guard confirmed == done + 20 else { throw BenchmarkError.failed("the drain confirmed \(confirmed - 20) of \(done) rows") }

        var bodies = Data()
        for key in keys {
            guard let payload = try await store.frozenPayload(for: key) else { throw BenchmarkError.failed("row \(key) has no payload") }
            bodies.append(contentsOf: payload)
            bodies.append(0x0A)
        }
        let output = try BenchHost.run(ceilingClient, ["--url", host.url.absoluteString, "--count", String(count), "--warmup", "5", "--bodies", "-"], stdin: bodies)
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
}

/// The reference host as a child process on a free loopback port.
final class BenchHost: @unchecked Sendable {
    let process = Process()
    let url: URL

    init(script: String, dataFile: String) throws {
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["--port", "0", "--data", dataFile, "--seed", "demo"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        // The host prints one line, "teller-host: listening on http://127.0.0.1:PORT", once it accepts.
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "listening on "), let url = URL(string: String(text[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw BenchmarkError.failed("teller-host did not start: \(text)")
        }
        self.url = url
    }

    /// SIGKILL: its data file is thrown away with the run.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs a tool to its end with `stdin` and returns its stdout.
    static func run(_ tool: String, _ arguments: [String], stdin: Data) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError.failed("\(tool) exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
