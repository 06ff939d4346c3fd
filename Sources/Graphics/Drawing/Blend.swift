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
