/// The heights of list rows already measured, so that a list of 1,000 rows
/// wraps each row's text once rather than on every frame: a list needs
/// every row's height for positions and its scroll indicator, but builds
/// and draws only the rows in view.
///
/// A row's height depends on its content, the width, the text scale and
/// the panel scale, and those are the key; the theme changes colours only.
/// Each list's heights are also kept whole, as prefix sums, while its rows
/// stay the same (``ListRows`` says when): a list scrolled frame after frame
/// neither hashes nor compares its rows again, and finds the rows in view by
/// a binary search. It lives in ``LayoutContext`` (copies share it) and,
/// like the font library beside it, is not thread-safe. It forgets
/// everything once it holds ``limit`` heights.
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

    private struct ListKey: Hashable {
        let list: String
        let width: Int
        let textScale: Double
        let scale: Double
    }

    /// Each list's rows and their prefix sums, per width it was asked at (a
    /// stack measures it at one width and may place it at another).
    private var offsets: [ListKey: (rows: ListRows, offsets: [Int])] = [:]

    public init() {}

    /// Where each of `rows` starts below the first at `width`, and as the
    /// last element where the last one ends: `count + 1` prefix sums of the
    /// row heights, the first 0.
    func offsets(of rows: ListRows, list: String, width: Int, _ context: LayoutContext) -> [Int] {
        let key = ListKey(list: list, width: width, textScale: context.textScale, scale: context.scale.factor)
        if let kept = offsets[key], kept.rows.isSame(as: rows) {
            // A rebuilt but equal source is kept in place of the old one: a layout asks
            // about the same rows several times, and comparing an array with its own
            // storage stops at once, where an equal copy is compared row by row.
            offsets[key] = (rows, kept.offsets)
            return kept.offsets
        }
        var sums = [Int](repeating: 0, count: rows.count + 1)
        for index in 0..<rows.count { sums[index + 1] = sums[index] + height(of: rows[index], width: width, context) }
        // A few lists at a few widths; more means the keys are going stale.
        if offsets.count >= 16 { offsets.removeAll(keepingCapacity: true) }
        offsets[key] = (rows, sums)
        return sums
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
