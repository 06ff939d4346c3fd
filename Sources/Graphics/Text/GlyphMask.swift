/// One rasterised glyph: an 8-bit coverage mask plus its placement.
///
/// A class so the draw loop reads a cached mask without copying or
/// retaining an array per glyph.
public final class GlyphMask {
    /// FreeType's index of the glyph in its face, needed for kerning.
    public let glyphIndex: UInt32
    public let width: Int
    public let height: Int
    /// Horizontal distance from the pen position to the mask's left edge.
    public let left: Int
    /// Distance from the baseline up to the mask's top edge.
    public let top: Int
    /// Pen advance in 26.6 fixed point (1/64 pixel).
    public let advance: Int
    /// `width * height` coverage values, rows packed.
    public let coverage: [UInt8]

    init(glyphIndex: UInt32, width: Int, height: Int, left: Int, top: Int, advance: Int, coverage: [UInt8]) {
        self.glyphIndex = glyphIndex
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.coverage = coverage
    }
}
