/// The heights of list rows already measured, so that a list of 1,000 rows
/// wraps each row's text once rather than on every frame: a list needs
/// every row's height for positions and its scroll indicator, but draws
/// only the rows in view.
///
/// A row's height depends on its content, the width, the text scale and
/// the panel scale, and those are the key; the theme changes colours only.
/// It lives in ``LayoutContext`` (copies share it) and, like the font
/// library beside it, is not thread-safe. It forgets everything once it
/// holds ``limit`` heights.
public final class RowHeightCache {
    private struct Key: Hashable {
        let row: ListRow
        let width: Int
        let textScale: Double
        let scale: Double
    }

    /// Enough for a few long lists at a couple of widths and text scales.
    public static let limit = 8_192

    private var heights: [Key: Int] = [:]
    /// How many rows were measured (their text wrapped) rather than found: what a long list costs.
    public private(set) var measuredCount = 0
    /// The last whole list asked for: a list scrolled frame after frame asks
    /// for the same rows again, and comparing them is cheaper than hashing each.
    private var last: (rows: [ListRow], width: Int, textScale: Double, scale: Double, heights: [Int])?

    public init() {}

    /// The heights of `rows` at `width`, in order.
    func heights(of rows: [ListRow], width: Int, _ context: LayoutContext) -> [Int] {
        if let last, last.width == width, last.textScale == context.textScale, last.scale == context.scale.factor, last.rows == rows {
            return last.heights
        }
        let measured = rows.map { height(of: $0, width: width, context) }
        last = (rows, width, context.textScale, context.scale.factor, measured)
        return measured
    }

    func height(of row: ListRow, width: Int, _ context: LayoutContext) -> Int {
        let key = Key(row: row, width: width, textScale: context.textScale, scale: context.scale.factor)
        if let height = heights[key] { return height }
        if heights.count >= Self.limit { heights.removeAll(keepingCapacity: true) }
        let height = RowPlan(row: row, width: width, context).height
        measuredCount += 1
        heights[key] = height
        return height
    }
}
