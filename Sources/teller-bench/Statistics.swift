import SystemCalls
import Glibc
import TellerCore

/// Wall-clock samples in milliseconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        let result = try body()
        values.append((ContinuousClock.now - start).milliseconds)
        return result
    }

    mutating func measure<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        let result = try await body()
        values.append((ContinuousClock.now - start).milliseconds)
        return result
    }

    mutating func append(_ milliseconds: Double) { values.append(milliseconds) }

    /// The value below which `fraction` of the samples fall (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        precondition(!values.isEmpty, "no samples")
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

extension Duration {
    /// The duration in milliseconds, to the attosecond the clock gives.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}

/// Prints one `key: value` result line.
func report(_ key: String, _ value: Double) {
    print("\(key): \(value.fixed(decimals: 3))")
}

/// Writes `message` to stderr unbuffered, as it comes: C's `stderr` is a
/// global Swift 6 refuses to touch, so this writes to descriptor 2.
func printError(_ message: String) {
    try? StandardStream.error.writeAll(Array(message.utf8))
}
