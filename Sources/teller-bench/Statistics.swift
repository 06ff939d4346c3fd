import Foundation

/// Wall-clock samples in milliseconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        values.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        return result
    }

    mutating func measure<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try await body()
        values.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
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

/// Prints one `key: value` result line.
func report(_ key: String, _ value: Double) {
    print("\(key): \(String(format: "%.3f", value))")
}
