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

    /// The glyph already blended in an opaque colour over an opaque plain
    /// background, for text on a panel (``composite(_:over:)``). At most
    /// ``compositesKept``, the most recently used first.
    private var composites: [Composite] = []
    /// A screen draws a glyph in a few colour-and-panel pairs (ink on the
    /// page, on a key, on a selected row, a warning); four keeps a screen's
    /// pairs without one evicting another on every frame.
    static let compositesKept = 4

    struct Composite {
        let color: UInt32
        let background: UInt32
        /// `width * height` pixels, rows packed: every pixel the blend of
        /// `color` at the mask's coverage over `background`.
        let pixels: [UInt32]
    }

    init(glyphIndex: UInt32, width: Int, height: Int, left: Int, top: Int, advance: Int, coverage: [UInt8]) {
        self.glyphIndex = glyphIndex
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
        self.coverage = coverage
    }

    /// The mask's box as drawing `color` (opaque, xRGB) over a box of
    /// `background` leaves it: made by the same ``blendSpan(_:into:count:src:colorAlpha:)``
    /// as any text, once per colour and background, so copying it is
    /// pixel for pixel the blend. A fifth pair replaces the one used least
    /// recently.
    func composite(_ color: UInt32, over background: UInt32) -> [UInt32] {
        if let index = composites.firstIndex(where: { $0.color == color && $0.background == background }) {
            if index != 0 { composites.insert(composites.remove(at: index), at: 0) }
            return composites[0].pixels
        }
        var pixels = [UInt32](repeating: background, count: width * height)
        coverage.withUnsafeBufferPointer { coverage in
            pixels.withUnsafeMutableBufferPointer { pixels in
                blendSpan(coverage.baseAddress!, into: pixels.baseAddress!, count: coverage.count, src: color, colorAlpha: 255)
            }
        }
        composites.insert(Composite(color: color, background: background, pixels: pixels), at: 0)
        if composites.count > Self.compositesKept { composites.removeLast() }
        return pixels
    }

    /// Bytes of the composites kept now (``GlyphCacheSize/compositeBytes``).
    var compositeBytes: Int {
        composites.reduce(0) { $0 + $1.pixels.count * MemoryLayout<UInt32>.stride }
    }
}
