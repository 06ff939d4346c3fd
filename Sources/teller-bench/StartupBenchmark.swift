import Foundation

/// `teller-bench startup`: the footprint and start-up of the terminal as
/// deploy/ ships it. See `startupUsage` for what it prints and where it
/// finds the binary.
let startupBenchmark = Benchmark(name: "startup", summary: "the shipped static build: size, .deb, first frame presented, RSS after a deposit",
                                 usage: startupUsage) { arguments in
    var runs = 5
    var teller: String?
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
        case "--teller": teller = rest.popFirst()
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    guard FileManager.default.isExecutableFile(atPath: packageDeb) else {
        throw BenchmarkError.failed("no \(packageDeb) here: run from the repository root")
    }
    let binary = try teller ?? shippedTeller()
    let work = NSTemporaryDirectory() + "teller-bench-startup-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: work) }
    // An empty configuration: the flags below say everything, /etc is not read.
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let config = "\(work)/teller.conf"
    try Data("# teller-bench startup\n".utf8).write(to: URL(fileURLWithPath: config))

    var starts = Samples()
    for run in 0..<runs {
        let directory = "\(work)/cold-\(run)"
        let terminal = try BenchProcess(binary, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                                 "--data-dir", directory + "/data", "--runtime-dir", directory + "/run"])
        defer { terminal.terminate() }
        // "ready:" is logged once the first frame has been presented (TerminalApp.framePresented).
        let readyAt = try terminal.waitForStderr(containing: "ready:", timeout: 20)
        starts.append(Double(readyAt.uptimeNanoseconds - terminal.startedAt.uptimeNanoseconds) / 1e6)
        if run == 0, try terminal.linksSwiftRuntime() {
            // Shared Swift libraries are pages the static build carries in its binary: the figures would not be deploy's.
            guard teller != nil else {
                throw BenchmarkError.failed("\(binary) links the Swift runtime dynamically, so it is not the build deploy/ ships. \(buildHint)")
            }
            FileHandle.standardError.write(Data("teller-bench startup: \(binary) links the Swift runtime dynamically; these are not the shipped build's figures\n".utf8))
        }
    }

    report("binary_size_mb", try fileMegabytes(binary))
    report("deb_size_mb", try debMegabytes(of: binary, in: "\(work)/deb"))
    report("first_frame_presented_ms", starts.median)

    // The deposit flow against the reference host, then the terminal's memory.
    let host = try BenchProcess("deploy/reference-host/teller-host", ["--port", "0", "--data", "\(work)/host.db", "--seed", "demo"])
    defer { host.terminate() }
    let line = try host.waitForStdout(containing: "listening on", timeout: 20)
    guard let url = line.split(separator: " ").last.map(String.init) else { throw BenchmarkError.failed("reference host did not say where it listens") }
    try FileManager.default.createDirectory(atPath: "\(work)/flow", withIntermediateDirectories: true)
    try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: "\(work)/flow/secret"))
    chmod("\(work)/flow/secret", 0o600)
    let socket = "\(work)/flow/run/control.sock"
    let terminal = try BenchProcess(binary, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                             "--data-dir", "\(work)/flow/data", "--runtime-dir", "\(work)/flow/run",
                                             "--terminal-id", "T-0001", "--host-url", url, "--secret-file", "\(work)/flow/secret"])
    defer { terminal.terminate() }
    _ = try terminal.waitForStderr(containing: "ready:", timeout: 20)
    let steps = ["tap sign-in.pin.1", "tap sign-in.pin.0", "tap sign-in.pin.0", "tap sign-in.pin.1", "tap sign-in.pin.enter",
                 "tap sign-in.pin.1", "tap sign-in.pin.2", "tap sign-in.pin.3", "tap sign-in.pin.4", "tap sign-in.pin.enter",
                 "tap home.find-account", "type DE54500105170426397158\n", "tap account.deposit",
                 "tap amount.keys.2", "tap amount.keys.5", "tap amount.keys.00", "tap amount.review", "tap review.confirm"]
    for step in steps {
        let result = try BenchProcess.run(binary, ["ctl", "--socket", socket] + step.split(separator: " ", maxSplits: 1).map(String.init))
        guard result == 0 else { throw BenchmarkError.failed("teller ctl \(step) failed") }
    }
    report("rss_after_flow_mb", try terminal.statusMegabytes("VmRSS"))
    report("vmhwm_after_flow_mb", try terminal.statusMegabytes("VmHWM"))
}

private let startupUsage = """
    Measures the terminal as deploy/ ships it, from the repository root:

      binary_size_mb            the teller binary, as built (MiB)
      deb_size_mb               the .deb deploy/package-deb makes of it, built into a temp dir (MiB)
      first_frame_presented_ms  exec until the first frame is on the panel (offscreen 1280x800):
                                the terminal logs "ready:" only after presenting it; median of --runs
      rss_after_flow_mb         VmRSS after a whole deposit through `teller ctl` against the
                                reference host (MiB)
      vmhwm_after_flow_mb       VmHWM (peak RSS) of the same terminal at the same moment (MiB)

    options:
      --runs N        cold starts, each on a fresh data directory (default 5)
      --teller PATH   measure another teller build instead

    By default it measures \(shippedTellerPath), where deploy/install and
    deploy/package-deb build the static binary. It builds nothing itself,
    and fails if that file is missing or links the Swift runtime dynamically
    (a plain `swift build -c release` writes the same path). Build it as
    deploy/ does:

        swift build -c release --product teller --static-swift-stdlib

    deb_size_mb runs deploy/package-deb, which needs dpkg-dev
    (tools/debian-packages).
    """

/// Where deploy/install and deploy/package-deb build and look for the binary they ship.
private let shippedTellerPath = ".build/release/teller"
private let packageDeb = "deploy/package-deb"
private let buildHint = "Build it as deploy/ does: swift build -c release --product teller --static-swift-stdlib"

private func shippedTeller() throws -> String {
    guard FileManager.default.isExecutableFile(atPath: shippedTellerPath) else {
        throw BenchmarkError.failed("no \(shippedTellerPath). \(buildHint) (or pass --teller PATH)")
    }
    return shippedTellerPath
}

/// The size of the file `path` names, after symbolic links (.build/release is one).
private func fileMegabytes(_ path: String) throws -> Double {
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let size = try FileManager.default.attributesOfItem(atPath: target)[.size] as? NSNumber
    guard let size else { throw BenchmarkError.failed("no size for \(path)") }
    return size.doubleValue / 1_048_576
}

/// Packages `binary` with deploy/package-deb, so the .deb is the one a field update downloads.
private func debMegabytes(of binary: String, in directory: String) throws -> Double {
    let packager = try BenchProcess(packageDeb, ["--binary", binary, "--output", directory])
    packager.process.waitUntilExit()
    guard packager.process.terminationStatus == 0 else {
        throw BenchmarkError.failed("\(packageDeb) failed: \(packager.stderr)")
    }
    let debs = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".deb") }
    guard debs.count == 1, let deb = debs.first else { throw BenchmarkError.failed("\(packageDeb) wrote \(debs) into \(directory)") }
    return try fileMegabytes("\(directory)/\(deb)")
}

/// A child process for the benchmark. Its output goes to files that are
/// polled, so nothing depends on which queue delivers pipe callbacks.
final class BenchProcess {
    let process = Process()
    /// Just before the spawn, on the monotonic clock.
    private(set) var startedAt = DispatchTime.now()
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
        startedAt = DispatchTime.now()
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    /// When a line containing `text` first appeared on stderr (polled every millisecond).
    func waitForStderr(containing text: String, timeout: TimeInterval) throws -> DispatchTime {
        _ = try wait(for: text, in: stderrPath, timeout: timeout)
        return DispatchTime.now()
    }

    /// Everything written to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

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
                throw BenchmarkError.failed("\(process.executableURL!.lastPathComponent) exited before '\(text)': \(stderr)")
            }
            usleep(1_000)
        }
        throw BenchmarkError.failed("no '\(text)' within \(Int(timeout)) s")
    }

    /// A kB line of /proc/PID/status (`VmRSS`, `VmHWM`), in MiB.
    func statusMegabytes(_ field: String) throws -> Double {
        let status = try procFile("status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError.failed("no \(field) for pid \(process.processIdentifier)")
        }
        return kilobytes / 1024
    }

    /// Whether the running child mapped the Swift runtime from a shared library,
    /// which a `--static-swift-stdlib` build never does.
    func linksSwiftRuntime() throws -> Bool {
        try procFile("maps").contains("/libswiftCore.so")
    }

    /// A /proc file of the child, read to its end: /proc reports a size of 0,
    /// and `String(contentsOfFile:)` then stops after the first 4 KiB.
    private func procFile(_ name: String) throws -> String {
        let path = "/proc/\(process.processIdentifier)/\(name)"
        guard let file = FileHandle(forReadingAtPath: path) else { throw BenchmarkError.failed("cannot read \(path)") }
        defer { try? file.close() }
        return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
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
