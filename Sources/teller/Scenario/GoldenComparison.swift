import Foundation
import Graphics
import Widgets

/// Compares a screenshot with its golden PNG tile by tile
/// (``ImageDifference``): one wrong digit fails it. What changes between
/// runs (``volatileFrames(in:)``: clocks, times, receipt numbers) is left out.
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

extension GoldenComparison {
    /// The parts of a screen that differ between two runs of the same
    /// scenario: the status bar's clock and "synced … ago", and any text that
    /// shows a time of day or a receipt number (a fresh random key). Amounts,
    /// accounts and words stay compared.
    static func volatileFrames(in tree: LayoutNode) -> [Rect] {
        var frames: [Rect] = []
        tree.forEach { node in
            if let identifier = node.identifier, ["status.clock", "status.sync"].contains(identifier) {
                frames.append(node.frame)
                return
            }
            // Each painted line of text that shows a time or a receipt number: from
            // its start to the node's edge, one line high (a row's title above it,
            // with the amount, stays compared).
            for paint in node.paints {
                guard case .text(let text, let font, _, let baseline) = paint, isVolatile(text) else { continue }
                let size = font.pixelSize
                frames.append(Rect(x: baseline.x, y: baseline.y - size, width: node.frame.maxX - baseline.x, height: size * 3 / 2))
            }
        }
        return frames
    }

    static func isVolatile(_ text: String) -> Bool {
        let timeOfDay = #/(^|\D)\d{1,2}:\d{2}(\D|$)/#
        let receiptNumber = #/^[0-9A-F]{8}$/#
        return text.contains(timeOfDay) || text.wholeMatch(of: receiptNumber) != nil
    }
}
