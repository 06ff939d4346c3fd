import Graphics

/// Which way a screen reads across: left to right (English, German,
/// Spanish) or right to left (Arabic), as Android and iOS call it.
///
/// In ``rightToLeft`` layout mirrors: a row's first child is on the right,
/// leading padding and leading text alignment are on the right, a list
/// row's title is on the right and its amount on the left, and scroll
/// indicators move to the left edge. Numbers are not mirrored: a
/// ``Keypad`` keeps 1-2-3 left to right in either direction. A part of a
/// screen that must read left to right whatever the language (a row of
/// digits) is wrapped in ``FixedDirection``.
public enum LayoutDirection: String, Hashable, Sendable, Codable {
    case leftToRight, rightToLeft

    public var isRightToLeft: Bool { self == .rightToLeft }

    /// The paragraph direction text is ordered with.
    public var textDirection: TextDirection { self == .rightToLeft ? .rightToLeft : .leftToRight }
}

extension LayoutContext {
    /// `rect`, which layout placed in `container` as if left to right, on
    /// the side of `container` the current direction puts it: unchanged
    /// left to right, reflected about the container's vertical centre line
    /// right to left. Widgets that place parts by hand (a list row's title,
    /// amount and button) compute left-to-right positions and pass them here.
    @inline(__always)
    public func placed(_ rect: Rect, in container: Rect) -> Rect {
        guard direction == .rightToLeft else { return rect }
        return Rect(x: container.minX + container.maxX - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// A pixel column `x` in `container` as ``placed(_:in:)`` moves it: the
    /// column that mirrors it right to left (a one-pixel line's end).
    @inline(__always)
    func placed(x: Int, in container: Rect) -> Int {
        guard direction == .rightToLeft else { return x }
        return container.minX + container.maxX - 1 - x
    }
}

extension TextAlignment {
    /// Where a line `width` pixels wide starts in `box` when the screen reads
    /// in `direction`: leading is the left edge left to right and the right
    /// edge right to left; trailing the other way; centre stays centred.
    @inline(__always)
    func lineStart(width: Int, in box: Rect, _ direction: LayoutDirection) -> Int {
        guard direction == .rightToLeft else { return lineStart(width: width, in: box) }
        switch self {
        case .leading: return box.maxX - width
        case .center: return lineStart(width: width, in: box)
        case .trailing: return box.minX
        }
    }
}
