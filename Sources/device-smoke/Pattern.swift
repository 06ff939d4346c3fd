import Graphics

/// The known picture the VM proof shows and the harness checks
/// (deploy/vm/proof_harness.py draws the same one independently).
///
/// Background 0x202838; eight colour bars across the middle third; 80x80
/// squares in the corners: red top-left, green top-right, blue bottom-left,
/// white bottom-right. The corners make any rotation or mirroring visible.
enum TestPattern {
    static let background: UInt32 = 0x202838
    static let bars: [UInt32] = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000]
    static let corner = 80
    static let marker: UInt32 = 0xFF8000
    static let markerSide = 9

    static func draw(on surface: Surface) {
        let w = surface.width, h = surface.height
        fill(surface, Rect(x: 0, y: 0, width: w, height: h), background)
        for (i, color) in bars.enumerated() {
            let x0 = i * w / 8, x1 = (i + 1) * w / 8
            fill(surface, Rect(x: x0, y: h / 3, width: x1 - x0, height: 2 * h / 3 - h / 3), color)
        }
        fill(surface, Rect(x: 0, y: 0, width: corner, height: corner), 0xFF0000)
        fill(surface, Rect(x: w - corner, y: 0, width: corner, height: corner), 0x00FF00)
        fill(surface, Rect(x: 0, y: h - corner, width: corner, height: corner), 0x0000FF)
        fill(surface, Rect(x: w - corner, y: h - corner, width: corner, height: corner), 0xFFFFFF)
    }

    /// A square centred on `p`, for rotation checks.
    static func drawMarker(on surface: Surface, at p: Point) {
        fill(surface, Rect(x: p.x - markerSide / 2, y: p.y - markerSide / 2, width: markerSide, height: markerSide), marker)
    }

    static func fill(_ surface: Surface, _ rect: Rect, _ rgb: UInt32) {
        let r = rect.intersection(surface.bounds)
        guard !r.isEmpty else { return }
        let pixel = 0xFF00_0000 | rgb
        for y in r.minY..<r.maxY { (surface.row(y) + r.minX).update(repeating: pixel, count: r.width) }
    }

    /// The centre of the marker-coloured pixels on `surface` (physical frame), if any.
    static func findMarker(on surface: Surface) -> Point? {
        var sx = 0, sy = 0, n = 0
        for y in 0..<surface.height {
            let row = surface.row(y)
            for x in 0..<surface.width where row[x] & 0x00FF_FFFF == marker { sx += x; sy += y; n += 1 }
        }
        return n == 0 ? nil : Point(x: sx / n, y: sy / n)
    }
}
