extension Surface {
    /// Writes `rect` of this surface into a buffer of another pixel format.
    ///
    /// The destination has this surface's coordinates: pixel (x, y) lands at
    /// `destination + y * strideBytes + x * format.bytesPerPixel`, so a
    /// display can convert only its damaged rects.
    /// - Parameters:
    ///   - rect: The pixels to convert, clipped to the surface bounds.
    ///   - format: The layout the destination expects.
    ///   - destination: The first byte of the destination's row 0.
    ///   - strideBytes: Distance between destination rows in bytes.
    public func convert(_ rect: Rect, to format: PixelFormat, into destination: UnsafeMutableRawPointer, strideBytes: Int) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let bpp = format.bytesPerPixel
        for y in r.minY..<r.maxY {
            let source = row(y) + r.minX
            let target = destination + y * strideBytes + r.minX * bpp
            switch format {
            case .xrgb8888:
                target.copyMemory(from: source, byteCount: r.width * 4)
            case .xbgr8888:
                let words = target.assumingMemoryBound(to: UInt32.self)
                for x in 0..<r.width {
                    let p = source[x]
                    words[x] = (p & 0xFF00_FF00) | (p >> 16 & 0xFF) | (p & 0xFF) << 16
                }
            case .rgb565:
                let halves = target.assumingMemoryBound(to: UInt16.self)
                for x in 0..<r.width { halves[x] = Surface.rgb565(source[x]) }
            case .rgb888, .bgr888:
                let bytes = target.assumingMemoryBound(to: UInt8.self)
                let swap = format == .bgr888
                for x in 0..<r.width {
                    let p = source[x]
                    let b = UInt8(truncatingIfNeeded: p), g = UInt8(truncatingIfNeeded: p >> 8)
                    let red = UInt8(truncatingIfNeeded: p >> 16)
                    bytes[3 * x] = swap ? red : b
                    bytes[3 * x + 1] = g
                    bytes[3 * x + 2] = swap ? b : red
                }
            }
        }
    }

    /// One XRGB8888 pixel as RGB565, keeping the top bits of each channel.
    @inline(__always)
    public static func rgb565(_ pixel: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: (pixel >> 8 & 0xF800) | (pixel >> 5 & 0x07E0) | (pixel >> 3 & 0x001F))
    }
}
