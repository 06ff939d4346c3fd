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
        for i in 0..<r {
            let top = rect.minY + i
            let bottom = rect.maxY - 1 - i
            fill(Rect(x: rect.minX + r, y: top, width: rect.width - 2 * r, height: 1), color)
            fill(Rect(x: rect.minX + r, y: bottom, width: rect.width - 2 * r, height: 1), color)
            for j in 0..<r {
                let coverage = cornerCoverage(column: j, row: i, radius: Double(r), innerRadius: nil)
                guard coverage > 0 else { continue }
                blend(x: rect.minX + j, y: top, color, coverage: coverage)
                blend(x: rect.maxX - 1 - j, y: top, color, coverage: coverage)
                blend(x: rect.minX + j, y: bottom, color, coverage: coverage)
                blend(x: rect.maxX - 1 - j, y: bottom, color, coverage: coverage)
            }
        }
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
        let inner = Double(r - width)
        for i in 0..<r {
            for j in 0..<r {
                let coverage = cornerCoverage(column: j, row: i, radius: Double(r), innerRadius: inner)
                guard coverage > 0 else { continue }
                blend(x: rect.minX + j, y: rect.minY + i, color, coverage: coverage)
                blend(x: rect.maxX - 1 - j, y: rect.minY + i, color, coverage: coverage)
                blend(x: rect.minX + j, y: rect.maxY - 1 - i, color, coverage: coverage)
                blend(x: rect.maxX - 1 - j, y: rect.maxY - 1 - i, color, coverage: coverage)
            }
        }
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

    /// Coverage (0...255) of pixel (`column`, `row`) of a top-left corner square
    /// whose arc has `radius`; with `innerRadius` the inner disc is cut out.
    private func cornerCoverage(column: Int, row: Int, radius: Double, innerRadius: Double?) -> UInt8 {
        let dx = radius - (Double(column) + 0.5)
        let dy = radius - (Double(row) + 0.5)
        let distance = (dx * dx + dy * dy).squareRoot()
        var coverage = max(0, min(1, radius - distance + 0.5))
        if let innerRadius {
            coverage -= max(0, min(1, innerRadius - distance + 0.5))
        }
        return UInt8((max(0, coverage) * 255).rounded())
    }
}
