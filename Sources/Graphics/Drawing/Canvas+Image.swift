extension Canvas {
    /// Draws `image` with its top-left corner at `origin`, blending by its alpha.
    ///
    /// Fully opaque and fully transparent pixels skip the blend, which is
    /// most of a typical icon.
    public func draw(_ image: Image, at origin: Point) {
        let target = Rect(origin: origin, size: image.size).intersection(clip)
        guard !target.isEmpty else { return }
        image.pixels.withUnsafeBufferPointer { source in
            for y in target.minY..<target.maxY {
                let sourceRow = source.baseAddress! + (y - origin.y) * image.size.width + (target.minX - origin.x)
                let row = surface.row(y) + target.minX
                for x in 0..<target.width {
                    let pixel = sourceRow[x]
                    let alpha = pixel >> 24
                    if alpha == 255 {
                        row[x] = pixel
                    } else if alpha > 0 {
                        row[x] = blendPixel(pixel, over: row[x], alpha: alpha)
                    }
                }
            }
        }
    }

    /// Copies `rect` of another surface onto this one at `origin`, opaque.
    public func draw(_ source: Surface, from rect: Rect, at origin: Point) {
        let sourceRect = rect.intersection(source.bounds)
        let target = Rect(origin: origin, size: sourceRect.size).intersection(clip)
        guard !target.isEmpty else { return }
        let dx = sourceRect.minX - origin.x, dy = sourceRect.minY - origin.y
        for y in target.minY..<target.maxY {
            (surface.row(y) + target.minX).update(from: source.row(y + dy) + target.minX + dx, count: target.width)
        }
    }
}
