extension Canvas {
    /// Fills `rect` with `color`, blending when the colour is translucent.
    ///
    /// An opaque fill stores its first row (`update(repeating:)`, a loop of
    /// 16-byte stores) and copies it into the rows below: a copy goes through
    /// the C library's `memmove`, which picks the widest stores the processor
    /// has, and full-screen backgrounds and panels are the bulk of a frame.
    /// Narrow rects (borders, corner rows) store every row, as a call per row
    /// would cost more than it saves.
    public func fill(_ rect: Rect, _ color: Color) {
        let r = rect.intersection(clip)
        guard !r.isEmpty, color.alpha > 0 else { return }
        if color.alpha == 255 {
            let pixel = color.xrgb
            guard r.width >= 16 else {
                for y in r.minY..<r.maxY { (surface.row(y) + r.minX).update(repeating: pixel, count: r.width) }
                return
            }
            let first = surface.row(r.minY) + r.minX
            first.update(repeating: pixel, count: r.width)
            for y in r.minY + 1..<r.maxY { (surface.row(y) + r.minX).update(from: first, count: r.width) }
        } else {
            let src = color.xrgb
            let alpha = UInt32(color.alpha)
            for y in r.minY..<r.maxY {
                let row = surface.row(y) + r.minX
                for x in 0..<r.width { row[x] = blendPixel(src, over: row[x], alpha: alpha) }
            }
        }
    }

    /// Fills the whole clip (usually the whole surface) with `color`.
    public func clear(_ color: Color) { fill(surface.bounds, color.withAlpha(255)) }

    /// Blends `color` into one pixel at `coverage` (0...255) times the colour's alpha.
    ///
    /// The building block of anti-aliased edges; does nothing outside the clip.
    @inline(__always)
    public func blend(x: Int, y: Int, _ color: Color, coverage: UInt8) {
        guard clip.contains(Point(x: x, y: y)), coverage > 0 else { return }
        let alpha = multiplyAlpha(UInt32(coverage), UInt32(color.alpha))
        let p = surface.row(y) + x
        p.pointee = alpha >= 255 ? color.xrgb : blendPixel(color.xrgb, over: p.pointee, alpha: alpha)
    }
}
