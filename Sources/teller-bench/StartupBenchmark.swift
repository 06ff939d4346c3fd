import SystemCalls
import FoundationEssentials
import Glibc
import ProcessHarness

/// `teller-bench startup`: the footprint and start-up of the terminal as
/// deploy/ ships it. See `startupUsage` for what it prints and where it
/// finds the binary.
let startupBenchmark = Benchmark(name: "startup", summary: "the shipped static build: size, .deb, first frame presented, RSS after a deposit",
                                 usage: startupUsage) { arguments in
    var runs = 5
    var teller: String?
    var smapsCopy: String?
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
        case "--teller": teller = rest.popFirst()
        case "--smaps": smapsCopy = rest.popFirst()
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    guard FileManager.default.isExecutableFile(atPath: packageDeb) else {
        throw BenchmarkError.failed("no \(packageDeb) here: run from the repository root")
    }
    let binary = try teller ?? shippedTeller()
    let work = try TemporaryDirectory("teller-bench-startup", in: TemporaryDirectory.systemPath)
    // Removed when the run ends, not after its last mention below.
    defer { withExtendedLifetime(work) {} }
    // Only the terminal id (an offline-only terminal that offers the
    // sign-in): the flags below say the rest, /etc is not read.
    let config = work.file("teller.conf")
    try Data("# teller-bench startup\nterminal_id = T-BENCH\n".utf8).write(to: URL(fileURLWithPath: config))

    var starts = Samples()
    for run in 0..<runs {
        let directory = work.file("cold-\(run)")
        let spawnedAt = ContinuousClock.now
        let terminal = try ChildProcess(binary, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                                 "--data-dir", directory + "/data", "--runtime-dir", directory + "/run"])
        // "ready:" is logged once the first frame has been presented (TerminalApp.framePresented).
        try await terminal.waitForStderr(containing: "ready:")
        starts.append((ContinuousClock.now - spawnedAt).milliseconds)
        if run == 0, try terminal.linksSwiftRuntime() {
            // Shared Swift libraries are pages the static build carries in its binary: the figures would not be deploy's.
            guard teller != nil else {
                throw BenchmarkError.failed("\(binary) links the Swift runtime dynamically, so it is not the build deploy/ ships. \(buildHint)")
            }
            printError("teller-bench startup: \(binary) links the Swift runtime dynamically; these are not the shipped build's figures\n")
        }
        await terminal.stop()
    }

    report("binary_size_mb", try fileMegabytes(binary))
    report("deb_size_mb", try await debMegabytes(of: binary, in: work.file("deb")))
    report("first_frame_presented_ms", starts.median)

    // The deposit flow against the reference host, then the terminal's memory.
    let host = try await ReferenceHost(directory: work, script: "deploy/reference-host/teller-host").start()
    let flow = work.file("flow")
    try FileManager.default.createDirectory(atPath: flow, withIntermediateDirectories: true)
    try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: "\(flow)/secret"))
    chmod("\(flow)/secret", 0o600)
    let socket = "\(flow)/run/control.sock"
    let terminal = try ChildProcess(binary, ["run", "--config", config, "--display", "offscreen", "--offscreen-size", "1280x800",
                                             "--data-dir", "\(flow)/data", "--runtime-dir", "\(flow)/run",
                                             "--terminal-id", "T-0001", "--host-url", host.url.absoluteString, "--secret-file", "\(flow)/secret"])
    try await terminal.waitForStderr(containing: "ready:")
    let steps = ["tap sign-in.pin.1", "tap sign-in.pin.0", "tap sign-in.pin.0", "tap sign-in.pin.1", "tap sign-in.pin.enter",
                 "tap sign-in.pin.1", "tap sign-in.pin.2", "tap sign-in.pin.3", "tap sign-in.pin.4", "tap sign-in.pin.enter",
                 "tap home.find-account", "type DE54500105170426397158\n", "tap account.deposit",
                 "tap amount.keys.2", "tap amount.keys.5", "tap amount.keys.00", "tap amount.review", "tap review.confirm"]
    for step in steps {
        let result = try await ChildProcess.run(binary, ["ctl", "--socket", socket] + step.split(separator: " ", maxSplits: 1).map(String.init))
        guard result.status == 0 else { throw BenchmarkError.failed("teller ctl \(step) failed: \(result.stderr)") }
    }
    report("rss_after_flow_mb", try terminal.statusMegabytes("VmRSS"))
    report("vmhwm_after_flow_mb", try terminal.statusMegabytes("VmHWM"))
    if let smapsCopy {
        // Where those pages are, per mapping, at the same moment (docs/device.md's breakdown).
        try Data(try terminal.procFile("smaps").utf8).write(to: URL(fileURLWithPath: smapsCopy))
    }
    await terminal.stop()
    await host.stop()
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
      --smaps FILE    also write the terminal's /proc/PID/smaps, read right after
                      rss_after_flow_mb, to FILE (tools/smaps-summary FILE tabulates it)

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
    do {
        return Double(try Syscall.fileStatus(path).st_size) / 1_048_576
    } catch {
        throw BenchmarkError.failed("no size for \(path): \(error.reason)")
    }
}

/// Packages `binary` with deploy/package-deb, so the .deb is the one a field update downloads.
private func debMegabytes(of binary: String, in directory: String) async throws -> Double {
    let packager = try await ChildProcess.run(packageDeb, ["--binary", binary, "--output", directory], timeout: .seconds(600))
    guard packager.status == 0 else {
        throw BenchmarkError.failed("\(packageDeb) failed: \(packager.stderr)")
    }
    let debs = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".deb") }
    guard debs.count == 1, let deb = debs.first else { throw BenchmarkError.failed("\(packageDeb) wrote \(debs) into \(directory)") }
    return try fileMegabytes("\(directory)/\(deb)")
}

/// What the benchmark reads of a running terminal.
extension ChildProcess {
    /// Returns once a line containing `text` is on stderr, looked for as the terminal writes (no polling interval).
    /// - Throws: ``BenchmarkError/failed(_:)`` if the process exits first or 20 s pass.
    func waitForStderr(containing text: String) async throws {
        guard await firstLine(containing: text, in: .stderr, timeout: .seconds(20)) == nil else { return }
        guard isRunning else {
            throw BenchmarkError.failed("\(command.split(separator: " ").first ?? "") exited before '\(text)': \(stderr)")
        }
        throw BenchmarkError.failed("no '\(text)' within 20 s")
    }

    /// A kB line of /proc/PID/status (`VmRSS`, `VmHWM`), in MiB.
    func statusMegabytes(_ field: String) throws -> Double {
        let status = try procFile("status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError.failed("no \(field) for pid \(pid)")
        }
        return kilobytes / 1024
    }

    /// Whether the running child mapped the Swift runtime from a shared library,
    /// which a `--static-swift-stdlib` build never does.
    func linksSwiftRuntime() throws -> Bool {
        try procFile("maps").contains("/libswiftCore.so")
    }

    /// A /proc file of the child, read to its end: /proc reports a size of 0,
    /// so a reader that trusts the size stops early.
    func procFile(_ name: String) throws -> String {
        let path = "/proc/\(pid)/\(name)"
        do {
            let file = try FileDescriptor.open(path, O_RDONLY)
            var contents: [UInt8] = []
            while case let chunk = try file.read(upTo: 65_536), !chunk.isEmpty { contents += chunk }
            return String(decoding: contents, as: UTF8.self)
        } catch {
            throw BenchmarkError.failed("cannot read \(path): \(error.reason)")
        }
    }
}
