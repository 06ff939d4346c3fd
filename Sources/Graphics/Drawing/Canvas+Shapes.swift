extension Canvas {
    /// Fills a rect with anti-aliased rounded corners.
    ///
    /// Only the `radius` rows at the top and bottom need per-pixel coverage;
    /// everything else is a plain row fill, so big rounded panels cost about
    /// what a square fill does.
    /// - Parameters:
    ///   - rect: The outer edge of the shape.
    ///   - radius: Corner radius in pixels, clamped to half the shorter side.
    ///   - color: Fill colour; translucent colours blend.
    public func fillRoundedRect(_ rect: Rect, radius: Int, _ color: Color) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else { return fill(rect, color) }
        guard rect.intersects(clip) else { return }
        fill(Rect(x: rect.minX, y: rect.minY + r, width: rect.width, height: rect.height - 2 * r), color)
        fill(Rect(x: rect.minX + r, y: rect.minY, width: rect.width - 2 * r, height: r), color)
        fill(Rect(x: rect.minX + r, y: rect.maxY - r, width: rect.width - 2 * r, height: r), color)
        blendCorners(of: rect, .cached(radius: r), color)
    }

    /// The parts of `rect` that ``fillRoundedRect(_:radius:_:)`` with an
    /// opaque colour sets to that colour whatever was under them: the
    /// full-width band between the corners and the full-height column between
    /// them. Only the corners blend. A renderer may leave out whatever an
    /// earlier paint would have drawn there.
    public static func opaqueParts(ofRoundedRect rect: Rect, radius: Int) -> (band: Rect, column: Rect) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else { return (rect, .zero) }
        return (Rect(x: rect.minX, y: rect.minY + r, width: rect.width, height: rect.height - 2 * r),
                Rect(x: rect.minX + r, y: rect.minY, width: rect.width - 2 * r, height: rect.height))
    }

    /// Draws an anti-aliased border of `width` pixels just inside `rect`.
    ///
    /// The inner corner arc is concentric with the outer one, so the border
    /// keeps a constant thickness around the corner.
    public func strokeRoundedRect(_ rect: Rect, radius: Int, width: Int, _ color: Color) {
        guard width > 0, !rect.isEmpty, rect.intersects(clip) else { return }
        if width * 2 >= min(rect.width, rect.height) { return fillRoundedRect(rect, radius: radius, color) }
        var r = max(0, min(radius, rect.width / 2, rect.height / 2))
        // A radius thinner than the border would make the straight strips overlap the corners.
        if r < width { r = 0 }
        let corner = max(r, width)
        fill(Rect(x: rect.minX + corner, y: rect.minY, width: rect.width - 2 * corner, height: width), color)
        fill(Rect(x: rect.minX + corner, y: rect.maxY - width, width: rect.width - 2 * corner, height: width), color)
        fill(Rect(x: rect.minX, y: rect.minY + corner, width: width, height: rect.height - 2 * corner), color)
        fill(Rect(x: rect.maxX - width, y: rect.minY + corner, width: width, height: rect.height - 2 * corner), color)
        if r == 0 {
            for (x, y) in [(rect.minX, rect.minY), (rect.maxX - width, rect.minY),
                           (rect.minX, rect.maxY - width), (rect.maxX - width, rect.maxY - width)] {
                fill(Rect(x: x, y: y, width: width, height: width), color)
            }
            return
        }
        blendCorners(of: rect, .cached(radius: r, border: width), color)
    }

    /// Fills an anti-aliased disc of `radius` pixels centred between pixels
    /// when the diameter is even.
    public func fillCircle(center: Point, radius: Int, _ color: Color) {
        fillRoundedRect(
            Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius),
            radius: radius, color)
    }

    /// Draws an anti-aliased line `width` pixels thick between two pixel centres.
    ///
    /// Axis-aligned lines (separators, underlines, the caret) take the fill
    /// path and stay perfectly sharp.
    public func drawLine(from start: Point, to end: Point, width: Int, _ color: Color) {
        guard width > 0 else { return }
        if start.y == end.y || start.x == end.x {
            let half = width / 2
            let x0 = min(start.x, end.x), x1 = max(start.x, end.x)
            let y0 = min(start.y, end.y), y1 = max(start.y, end.y)
            let rect = start.y == end.y
                ? Rect(x: x0, y: y0 - half, width: x1 - x0 + 1, height: width)
                : Rect(x: x0 - half, y: y0, width: width, height: y1 - y0 + 1)
            return fill(rect, color)
        }
        let ax = Double(start.x) + 0.5, ay = Double(start.y) + 0.5
        let dx = Double(end.x - start.x), dy = Double(end.y - start.y)
        let lengthSquared = dx * dx + dy * dy
        let halfWidth = Double(width) / 2
        let pad = Int(halfWidth.rounded(.up)) + 1
        let box = Rect(
            x: min(start.x, end.x) - pad, y: min(start.y, end.y) - pad,
            width: abs(end.x - start.x) + 2 * pad + 1, height: abs(end.y - start.y) + 2 * pad + 1
        ).intersection(clip)
        guard !box.isEmpty else { return }
        for y in box.minY..<box.maxY {
            for x in box.minX..<box.maxX {
                let px = Double(x) + 0.5 - ax, py = Double(y) + 0.5 - ay
                let t = max(0, min(1, (px * dx + py * dy) / lengthSquared))
                let ex = px - t * dx, ey = py - t * dy
                let distance = (ex * ex + ey * ey).squareRoot()
                let coverage = max(0, min(1, halfWidth - distance + 0.5))
                if coverage > 0 { blend(x: x, y: y, color, coverage: UInt8((coverage * 255).rounded())) }
            }
        }
    }
}
