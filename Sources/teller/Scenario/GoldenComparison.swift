import Foundation
import Graphics

/// Compares a screenshot with its golden PNG tile by tile
/// (``ImageDifference``): one wrong digit fails it. The status bar's clock
/// and "synced … ago", which change between runs, are left out.
struct GoldenComparison {
    var difference = ImageDifference()

    /// A line for the report; throws when the shot differs from the golden.
    /// - Parameter ignoring: regions whose content changes from run to run.
    func compare(_ surface: Surface, golden path: String, name: String, ignoring masks: [Rect] = []) throws(ScenarioError) -> String {
        let golden: Image
        do { golden = try PNG.read(contentsOf: path) } catch {
            throw ScenarioError(file: path, line: 0, message: "cannot read the golden: \(error)")
        }
        guard golden.size == surface.size else {
            throw ScenarioError(file: path, line: 0, message: "screenshot \(name) is \(surface.width)x\(surface.height), the golden \(golden.size.width)x\(golden.size.height)")
        }
        let tiles = difference.differingTiles(surface, golden, ignoring: masks)
        guard tiles.isEmpty else {
            let first = tiles[0]
            throw ScenarioError(file: path, line: 0, message: "screenshot \(name) differs from \(path) in \(tiles.count) tile(s) of \(difference.tileSize) px, the first at x \(first.minX), y \(first.minY)")
        }
        return "screenshot \(name): matches \(path)"
    }
}
