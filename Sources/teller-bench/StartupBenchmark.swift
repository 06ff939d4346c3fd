import Foundation

/// `teller-bench startup [--runs N]`: how long the real `teller run` takes
/// from exec to its first frame offscreen at 1280x800 (the median of N cold
/// starts, each on a fresh data directory), and its resident memory after a
/// whole deposit flow driven through `teller ctl` against the reference host.
/// Run from the repository root after `swift build -c release`; `--teller
/// PATH` measures another build, e.g. the `--static-swift-stdlib` binary that
/// deploy/ ships, whose shared-library pages do not count.
let startupBenchmark = Benchmark(name: "startup", summary: "cold start to first frame, RSS after a deposit flow") { arguments in
    var runs = 5
    var teller = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("teller").path
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
        case "--teller": teller = rest.popFirst() ?? teller
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    guard FileManager.default.isExecutableFile(atPath: teller) else { throw BenchmarkError.failed("no teller next to teller-bench at \(teller); build it first") }
    let work = NSTemporaryDirectory() + "teller-bench-startup-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: work) }
    // An empty configuration: the flags below say everything, /etc is not read.
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let config = "\(work)/teller.conf"
    try Data("# teller-bench startup\n".utf8).write(to: URL(fileURLWithPath: config))

    var starts = Samples()
    for run in 0..<runs {
        let directory = "\(work)/cold-\(run)"
        let terminal = try BenchProcess(teller, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                                 "--data-dir", directory + "/data", "--runtime-dir", directory + "/run"])
        let start = terminal.startedAt
        let readyAt = try terminal.waitForStderr(containing: "ready:", timeout: 20)
        starts.append(readyAt.timeIntervalSince(start) * 1000)
        terminal.terminate()
    }
    report("cold_start_to_first_frame_ms", starts.median)

    // The deposit flow against the reference host, then the terminal's RSS.
    let host = try BenchProcess("deploy/reference-host/teller-host", ["--port", "0", "--data", "\(work)/host.db", "--seed", "demo"])
    defer { host.terminate() }
    let line = try host.waitForStdout(containing: "listening on", timeout: 20)
    guard let url = line.split(separator: " ").last.map(String.init) else { throw BenchmarkError.failed("reference host did not say where it listens") }
    try FileManager.default.createDirectory(atPath: "\(work)/flow", withIntermediateDirectories: true)
    try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: "\(work)/flow/secret"))
    chmod("\(work)/flow/secret", 0o600)
    let socket = "\(work)/flow/run/control.sock"
    let terminal = try BenchProcess(teller, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                             "--data-dir", "\(work)/flow/data", "--runtime-dir", "\(work)/flow/run",
                                             "--terminal-id", "T-0001", "--host-url", url, "--secret-file", "\(work)/flow/secret"])
    defer { terminal.terminate() }
    _ = try terminal.waitForStderr(containing: "ready:", timeout: 20)
    let steps = ["tap sign-in.pin.1", "tap sign-in.pin.0", "tap sign-in.pin.0", "tap sign-in.pin.1", "tap sign-in.pin.enter",
                 "tap sign-in.pin.1", "tap sign-in.pin.2", "tap sign-in.pin.3", "tap sign-in.pin.4", "tap sign-in.pin.enter",
                 "tap home.find-account", "type DE54500105170426397158\n", "tap account.deposit",
                 "tap amount.keys.2", "tap amount.keys.5", "tap amount.keys.00", "tap amount.review", "tap review.confirm"]
    for step in steps {
        let result = try BenchProcess.run(teller, ["ctl", "--socket", socket] + step.split(separator: " ", maxSplits: 1).map(String.init))
        guard result == 0 else { throw BenchmarkError.failed("teller ctl \(step) failed") }
    }
    report("rss_after_flow_mb", try terminal.residentMegabytes())
}

/// A child process for the benchmark. Its output goes to files that are
/// polled, so nothing depends on which queue delivers pipe callbacks.
final class BenchProcess {
    let process = Process()
    private(set) var startedAt = Date()
    private let stdoutPath: String
    private let stderrPath: String

    init(_ executable: String, _ arguments: [String]) throws {
        let base = NSTemporaryDirectory() + "teller-bench-\(UUID().uuidString)"
        stdoutPath = base + ".out"
        stderrPath = base + ".err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        startedAt = Date()
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    /// When a line containing `text` first appeared on stderr (polled every millisecond).
    func waitForStderr(containing text: String, timeout: TimeInterval) throws -> Date {
        _ = try wait(for: text, in: stderrPath, timeout: timeout)
        return Date()
    }

    /// The first stdout line containing `text`.
    func waitForStdout(containing text: String, timeout: TimeInterval) throws -> String {
        try wait(for: text, in: stdoutPath, timeout: timeout)
    }

    private func wait(for text: String, in path: String, timeout: TimeInterval) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if let line = contents.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            if !process.isRunning {
                let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                throw BenchmarkError.failed("\(process.executableURL!.lastPathComponent) exited before '\(text)': \(errors)")
            }
            usleep(1_000)
        }
        throw BenchmarkError.failed("no '\(text)' within \(Int(timeout)) s")
    }

    /// VmRSS from /proc, in MiB.
    func residentMegabytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError.failed("no VmRSS for pid \(process.processIdentifier)")
        }
        return kilobytes / 1024
    }

    /// SIGTERM, then SIGKILL after 3 s: a child spawned by Foundation
    /// inherits this thread's blocked SIGTERM, which Python never unblocks.
    func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return child.terminationStatus
    }
}
