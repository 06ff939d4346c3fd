import Graphics

/// The pixel layout of a scanout buffer.
enum ScanoutFormat: Hashable, Sendable {
    case xrgb8888
    case rgb565
}

/// One buffer the panel reads from: mapped memory in the physical (unrotated) frame.
struct ScanoutBuffer {
    let base: UnsafeMutableRawPointer
    let strideBytes: Int
    let size: Size
    let format: ScanoutFormat

    /// The buffer as an XRGB8888 surface (only for `.xrgb8888`).
    func surface(owner: AnyObject?) -> Surface {
        precondition(format == .xrgb8888, "only XRGB8888 scanout buffers can be drawn into directly")
        return Surface(wrapping: base.assumingMemoryBound(to: UInt32.self), size: size, stridePixels: strideBytes / 4, owner: owner)
    }

    /// Copies logical `rect` of `source` into this buffer, rotating by `transform` and converting the format.
    func copy(_ rect: Rect, from source: Surface, transform: DisplayTransform) {
        let r = rect.intersection(source.bounds)
        guard !r.isEmpty else { return }
        switch format {
        case .xrgb8888:
            let strideP = strideBytes / 4
            let dst = base.assumingMemoryBound(to: UInt32.self)
            if transform.rotation == .degrees0 {
                for y in r.minY..<r.maxY { (dst + y * strideP + r.minX).update(from: source.row(y) + r.minX, count: r.width) }
            } else {
                blit(r, source, transform) { x, y, pixel in dst[y * strideP + x] = pixel }
            }
        case .rgb565:
            let strideP = strideBytes / 2
            let dst = base.assumingMemoryBound(to: UInt16.self)
            blit(r, source, transform) { x, y, p in
                dst[y * strideP + x] = UInt16(truncatingIfNeeded: (p >> 8) & 0xF800 | (p >> 5) & 0x07E0 | (p >> 3) & 0x001F)
            }
        }
    }

    /// Walks logical rows of `r` and hands each pixel to `write` at its physical position.
    @inline(__always)
    private func blit(_ r: Rect, _ source: Surface, _ transform: DisplayTransform, _ write: (Int, Int, UInt32) -> Void) {
        let w = transform.physicalSize.width, h = transform.physicalSize.height
        for y in r.minY..<r.maxY {
            let row = source.row(y)
            switch transform.rotation {
            case .degrees0:
                for x in r.minX..<r.maxX { write(x, y, row[x]) }
            case .degrees90:
                let px = w - 1 - y
                for x in r.minX..<r.maxX { write(px, x, row[x]) }
            case .degrees180:
                let py = h - 1 - y
                for x in r.minX..<r.maxX { write(w - 1 - x, py, row[x]) }
            case .degrees270:
                for x in r.minX..<r.maxX { write(y, h - 1 - x, row[x]) }
            }
        }
    }
}
