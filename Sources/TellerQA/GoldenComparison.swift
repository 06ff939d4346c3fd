import TellerConfiguration
import FoundationEssentials
import Graphics
import Widgets

/// Compares a screenshot with its golden PNG through
/// `ImageDifference.compare`, the same comparison as the golden tests: one
/// wrong digit fails it. What changes between runs (``volatileFrames(in:)``:
/// clocks, times, receipt numbers) is left out.
public struct GoldenComparison: Sendable {
    public var difference = ImageDifference()

    public init() {}

    /// A line for the report; throws when the shot differs from the golden.
    /// - Parameter ignoring: regions whose content changes from run to run.
    public func compare(_ surface: Surface, golden path: String, name: String, ignoring masks: [Rect] = []) throws(ScenarioError) -> String {
        do {
            try difference.compare(surface, goldenAt: path, ignoring: masks)
        } catch {
            throw ScenarioError(file: path, line: 0, message: "screenshot \(name): \(error)")
        }
        return "screenshot \(name): matches \(path)"
    }
}

extension GoldenComparison {
    /// The parts of a screen that differ between two runs of the same
    /// scenario: the status bar's clock and "synced … ago", and any text that
    /// shows a time of day or a receipt number (a fresh random key). Amounts,
    /// accounts and words stay compared.
    public static func volatileFrames(in tree: LayoutNode) -> [Rect] {
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

    /// A time of day anywhere in the line, or a receipt number (eight hex
    /// digits) as a word of its own: alone on a receipt, or inside a row such
    /// as the till's "Deposit 4992EB20 · Wrong amount".
    static func isVolatile(_ text: String) -> Bool {
        let timeOfDay = #/(^|\D)\d{1,2}:\d{2}(\D|$)/#
        let receiptNumber = #/(^|[^0-9A-Za-z])[0-9A-F]{8}([^0-9A-Za-z]|$)/#
        return text.contains(timeOfDay) || text.contains(receiptNumber)
    }
}
