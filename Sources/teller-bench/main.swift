// teller-bench: measures Teller's speed and memory targets as ratios against
// a baseline taken in the same run, so a noisy machine moves both sides.
// Each benchmark lives in its own file and registers itself in `benchmarks`.
import Device
import Glibc

/// A named benchmark: `run` prints `key: value` lines to stdout.
struct Benchmark: Sendable {
    let name: String
    let summary: String
    /// What `teller-bench NAME --help` prints below the summary: the figures and options.
    var usage = ""
    let run: @Sendable ([String]) async throws -> Void
}

let benchmarks: [Benchmark] = [
    enqueueBenchmark,
    writesBenchmark,
    historyBenchmark,
    renderBenchmark,
    inputBenchmark,
    glyphBenchmark,
    drainBenchmark,
    handshakeBenchmark,
    startupBenchmark,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let benchmark = benchmarks.first(where: { $0.name == name }) else {
    var usage = "usage: teller-bench <benchmark> [options]\n\nbenchmarks:\n"
    for b in benchmarks {
        let column = b.name + String(repeating: " ", count: max(0, 10 - b.name.count))
        usage += "  \(column) \(b.summary)\n"
    }
    usage += "\n`teller-bench <benchmark> --help` says more where the benchmark documents its figures and options.\n"
    printError(usage)
    exit(2)
}
if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("teller-bench \(benchmark.name): \(benchmark.summary)\n")
    if !benchmark.usage.isEmpty { print(benchmark.usage) }
    exit(0)
}
// Served on the main thread as `teller` serves it (Device's MainThread), so
// what runs on the main actor here runs where it runs in the terminal.
let failure: String? = MainThread.run {
    do {
        try await benchmark.run(Array(arguments.dropFirst()))
        return nil
    } catch {
        return "teller-bench \(name): \(error)\n"
    }
}
if let failure {
    printError(failure)
    exit(1)
}
