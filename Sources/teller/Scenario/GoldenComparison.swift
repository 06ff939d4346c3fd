import Foundation
import Graphics

/// Compares a screenshot with its golden PNG with a tolerance: a pixel
/// differs when any channel is off by more than `channelTolerance`, and the
/// shot passes when at most `tolerance` of its pixels differ (the clock and
/// "synced … ago" change between runs).
struct GoldenComparison {
    var tolerance = 0.01
    var channelTolerance: UInt32 = 8

    /// A line for the report; throws when the shot differs from the golden.
    func compare(_ surface: Surface, golden path: String, name: String) throws(ScenarioError) -> String {
        let golden: Image
        do { golden = try PNG.read(contentsOf: path) } catch {
            throw ScenarioError(file: path, line: 0, message: "cannot read the golden: \(error)")
        }
        guard golden.size == surface.size else {
            throw ScenarioError(file: path, line: 0, message: "screenshot \(name) is \(surface.width)x\(surface.height), the golden \(golden.size.width)x\(golden.size.height)")
        }
        var differing = 0
        for y in 0..<surface.height {
            let row = surface.row(y)
            for x in 0..<surface.width where Self.differs(row[x], golden.pixels[y * surface.width + x], by: channelTolerance) {
                differing += 1
            }
        }
        let ratio = Double(differing) / Double(max(1, surface.width * surface.height))
        let line = "screenshot \(name): \(differing) pixels (\((ratio * 100).formatted(.number.precision(.fractionLength(2))))%) differ from \(path), tolerance \((tolerance * 100).formatted())%"
        guard ratio <= tolerance else { throw ScenarioError(file: path, line: 0, message: line) }
        return line
    }

    private static func differs(_ a: UInt32, _ b: UInt32, by limit: UInt32) -> Bool {
        if a & 0xFFFFFF == b & 0xFFFFFF { return false }
        for shift: UInt32 in [0, 8, 16] {
            let ca = (a >> shift) & 0xFF, cb = (b >> shift) & 0xFF
            if (ca > cb ? ca - cb : cb - ca) > limit { return true }
        }
        return false
    }
}
