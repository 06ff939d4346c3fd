import Synchronization

/// The anti-aliased coverage of a rounded rect's corners at one radius (and,
/// for a border, one width), worked out once for the life of the process.
///
/// A screen has a handful of radii (keys, fields, badges, panels), drawn
/// every frame; each corner pixel would otherwise cost a square root and a
/// rounding per rect. Row `i` holds the top-left corner's row `i` from the
/// rect's left edge inwards, then the top-right corner's row `i` from its
/// inner edge out to the rect's right edge, so both are read left to right.
/// The bottom corners are the same rows upside down.
struct CornerCoverage: Sendable {
    let radius: Int
    private let rows: [UInt8]

    private init(radius: Int, innerRadius: Double?) {
        self.radius = radius
        var rows = [UInt8](repeating: 0, count: 2 * radius * radius)
        for i in 0..<radius {
            for j in 0..<radius {
                let value = Self.coverage(column: j, row: i, radius: Double(radius), innerRadius: innerRadius)
                rows[i * 2 * radius + j] = value
                rows[i * 2 * radius + 2 * radius - 1 - j] = value
            }
        }
        self.rows = rows
    }

    /// The coverage of a filled corner of `radius`, or of a border `border` pixels wide inside it.
    static func cached(radius: Int, border: Int? = nil) -> CornerCoverage {
        let key = Key(radius: radius, border: border)
        if let known = cache.withLock({ $0[key] }) { return known }
        let made = CornerCoverage(radius: radius, innerRadius: border.map { Double(radius - $0) })
        cache.withLock { cache in
            // Radii come from a theme, so this stays small; a stream of odd sizes starts it over.
            if cache.count >= 256 { cache.removeAll() }
            cache[key] = made
        }
        return made
    }

    /// Calls `body` with row `i` (``radius`` left-corner bytes, then ``radius`` right-corner bytes).
    @inline(__always)
    func withRow<T>(_ i: Int, _ body: (UnsafePointer<UInt8>) -> T) -> T {
        rows.withUnsafeBufferPointer { body($0.baseAddress! + i * 2 * radius) }
    }

    /// Coverage (0...255) of pixel (`column`, `row`) of a top-left corner square
    /// whose arc has `radius`; with `innerRadius` the inner disc is cut out.
    static func coverage(column: Int, row: Int, radius: Double, innerRadius: Double?) -> UInt8 {
        let dx = radius - (Double(column) + 0.5)
        let dy = radius - (Double(row) + 0.5)
        let distance = (dx * dx + dy * dy).squareRoot()
        var coverage = max(0, min(1, radius - distance + 0.5))
        if let innerRadius {
            coverage -= max(0, min(1, innerRadius - distance + 0.5))
        }
        return UInt8((max(0, coverage) * 255).rounded())
    }

    private struct Key: Hashable {
        let radius: Int
        let border: Int?
    }

    private static let cache = Mutex<[Key: CornerCoverage]>([:])
}

extension Canvas {
    /// Blends the four `coverage.radius`-square corners of `rect` in `color`, within the clip.
    ///
    /// The corners never overlap each other (the radius is at most half of
    /// each side), so the order they are drawn in changes no pixel.
    func blendCorners(of rect: Rect, _ coverage: CornerCoverage, _ color: Color) {
        let r = coverage.radius
        let clip = self.clip
        let src = color.xrgb, colorAlpha = UInt32(color.alpha)
        let leftEnd = min(rect.minX + r, clip.maxX), leftStart = max(rect.minX, clip.minX)
        let rightEnd = min(rect.maxX, clip.maxX), rightStart = max(rect.maxX - r, clip.minX)
        // One corner row: its left part at y, and its right part.
        func blend(_ row: UnsafePointer<UInt8>, y: Int) {
            guard y >= clip.minY && y < clip.maxY else { return }
            let pixels = surface.row(y)
            if leftStart < leftEnd {
                blendSpan(row + (leftStart - rect.minX), into: pixels + leftStart, count: leftEnd - leftStart,
                          src: src, colorAlpha: colorAlpha)
            }
            if rightStart < rightEnd {
                blendSpan(row + r + (rightStart - (rect.maxX - r)), into: pixels + rightStart,
                          count: rightEnd - rightStart, src: src, colorAlpha: colorAlpha)
            }
        }
        for i in 0..<r {
            coverage.withRow(i) { row in
                blend(row, y: rect.minY + i)
                blend(row, y: rect.maxY - 1 - i)
            }
        }
    }
}
