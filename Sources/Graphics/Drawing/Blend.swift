/// Integer "source over" for one pixel: `src` (xRGB) at coverage `alpha` over `dst`.
///
/// Red and blue share one 32-bit multiply (16-bit lanes), green gets its own;
/// the `(x + 128 + (x >> 8)) >> 8` step is an exact-enough division by 255
/// without a divide instruction, which matters in text and edge loops.
@inline(__always)
func blendPixel(_ src: UInt32, over dst: UInt32, alpha: UInt32) -> UInt32 {
    let inverse = 255 &- alpha
    var rb = (src & 0x00FF_00FF) &* alpha &+ (dst & 0x00FF_00FF) &* inverse
    rb = ((rb &+ 0x0080_0080 &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    var g = ((src >> 8) & 0xFF) &* alpha &+ ((dst >> 8) & 0xFF) &* inverse
    g = (g &+ 128 &+ (g >> 8)) >> 8
    return 0xFF00_0000 | rb | (g << 8)
}

/// Scales an 8-bit coverage by an 8-bit alpha, rounding like ``blendPixel(_:over:alpha:)``.
@inline(__always)
func multiplyAlpha(_ a: UInt32, _ b: UInt32) -> UInt32 {
    let x = a &* b
    return (x &+ 128 &+ (x >> 8)) >> 8
}

/// Blends `src` into `count` pixels from `row` at the coverages from `coverage`
/// (glyph masks, anti-aliased corners), each scaled by `colorAlpha`.
///
/// Pixel for pixel what ``blendPixel(_:over:alpha:)`` gives: a coverage of 0
/// leaves its pixel alone, any other is blended at `multiplyAlpha(coverage,
/// colorAlpha)` (full coverage of an opaque colour stores `src`, which the
/// blend gives exactly). Four pixels go at a time in 16-bit lanes, one
/// channel each: a product of two bytes and the rounding step fit in 16 bits,
/// so the lanes give the very values of the 32-bit form, without the branch
/// per pixel that a glyph's ragged edges make unpredictable; four fully
/// covered pixels of an opaque colour are stored without blending.
/// - Parameter src: An xRGB colour with its top byte set (``Color/xrgb``).
@inline(__always)
func blendSpan(_ coverage: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<UInt32>, count: Int,
               src: UInt32, colorAlpha: UInt32) {
    typealias Lanes = SIMD8<UInt16>
    var x = 0
    if count >= 4 {
        let srcRB = unsafeBitCast(SIMD4<UInt32>(repeating: src & 0x00FF_00FF), to: Lanes.self)
        let srcAG = unsafeBitCast(SIMD4<UInt32>(repeating: (src >> 8) & 0x00FF_00FF), to: Lanes.self)
        let tint = Lanes(repeating: UInt16(truncatingIfNeeded: colorAlpha))
        let opaque = colorAlpha == 255
        while x &+ 4 <= count {
            let raw = UnsafeRawPointer(coverage + x)
            let four = raw.loadUnaligned(as: UInt32.self)
            if four == 0 {
                x &+= 4
                continue
            }
            // Fully covered in an opaque colour: the blend gives `src` exactly (the inside of a
            // rounded corner, a heavy stroke of a large glyph).
            if four == 0xFFFF_FFFF && opaque {
                UnsafeMutableRawPointer(row + x).storeBytes(of: SIMD4<UInt32>(repeating: src), as: SIMD4<UInt32>.self)
                x &+= 4
                continue
            }
            // Each pixel's coverage in both of its 16-bit lanes (written so that it compiles to two unpacks).
            let bytes = unsafeBitCast(SIMD4<UInt32>(four, 0, 0, 0), to: SIMD16<UInt8>.self)
            let spread = unsafeBitCast(SIMD16<UInt8>(bytes[0], 0, 0, 0, bytes[1], 0, 0, 0, bytes[2], 0, 0, 0, bytes[3], 0, 0, 0),
                                       to: SIMD4<UInt32>.self)
            let covered = unsafeBitCast(spread | (spread &<< 16), to: Lanes.self)
            var alpha = covered
            if colorAlpha != 255 {
                let product = alpha &* tint
                alpha = (product &+ 128 &+ (product &>> 8)) &>> 8
            }
            let inverse = 255 &- alpha
            let destination = UnsafeMutableRawPointer(row + x)
            let dst = destination.loadUnaligned(as: SIMD4<UInt32>.self)
            var rb = srcRB &* alpha &+ unsafeBitCast(dst & 0x00FF_00FF, to: Lanes.self) &* inverse
            rb = (rb &+ 128 &+ (rb &>> 8)) &>> 8
            var ag = srcAG &* alpha &+ unsafeBitCast((dst &>> 8) & 0x00FF_00FF, to: Lanes.self) &* inverse
            ag = (ag &+ 128 &+ (ag &>> 8)) &>> 8
            let blended = unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
                | 0xFF00_0000
            // All ones where the coverage is 0: that pixel keeps even its top byte.
            let untouched = unsafeBitCast(0 &- ((covered &- 1) &>> 15), to: SIMD4<UInt32>.self)
            destination.storeBytes(of: (blended & ~untouched) | (dst & untouched), as: SIMD4<UInt32>.self)
            x &+= 4
        }
    }
    while x < count {
        var alpha = UInt32(coverage[x])
        if alpha != 0 {
            if colorAlpha != 255 { alpha = multiplyAlpha(alpha, colorAlpha) }
            row[x] = alpha == 255 ? src : blendPixel(src, over: row[x], alpha: alpha)
        }
        x &+= 1
    }
}
