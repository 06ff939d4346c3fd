/// What the glyph caches hold: the fonts made so far and their masks.
///
/// The fonts and masks are unbounded and never evicted: a font is kept per
/// weight and pixel size for the life of its ``FontLibrary``, and a mask per
/// distinct scalar (and per glyph index of shaped text) for the life of its
/// ``Font``. Each mask keeps at most four composites (the glyph blended over
/// a plain panel), the least recently used replaced. These figures are how a reader judges whether that is still right; the
/// shaped lines themselves are bounded apart (``ShapedLines``) and not counted.
public struct GlyphCacheSize: Hashable, Sendable {
    /// Fonts made, one per (weight, pixel size) asked for.
    public var fonts: Int
    /// Masks cached: each distinct scalar, and each glyph index shaped text used, once per font that drew or measured it.
    public var glyphs: Int
    /// Coverage bytes of those masks (each also costs a small object and an array header).
    public var maskBytes: Int
    /// The fonts' ASCII kerning tables: 128x128 pairs of 4 bytes, allocated whole with each font that has kerning.
    public var kerningBytes: Int
    /// Pixels of the glyphs already blended over a plain panel, 4 bytes each,
    /// at most four colour-and-panel pairs a mask (``GlyphMask``).
    public var compositeBytes: Int

    public init(fonts: Int = 0, glyphs: Int = 0, maskBytes: Int = 0, kerningBytes: Int = 0, compositeBytes: Int = 0) {
        self.fonts = fonts
        self.glyphs = glyphs
        self.maskBytes = maskBytes
        self.kerningBytes = kerningBytes
        self.compositeBytes = compositeBytes
    }

    /// Mask, kerning and composite bytes together.
    public var bytes: Int { maskBytes + kerningBytes + compositeBytes }

    public static func + (a: GlyphCacheSize, b: GlyphCacheSize) -> GlyphCacheSize {
        GlyphCacheSize(fonts: a.fonts + b.fonts, glyphs: a.glyphs + b.glyphs, maskBytes: a.maskBytes + b.maskBytes,
                       kerningBytes: a.kerningBytes + b.kerningBytes, compositeBytes: a.compositeBytes + b.compositeBytes)
    }
}
