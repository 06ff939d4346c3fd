import CFreeType

/// A typeface at one pixel size, with its glyph cache.
///
/// Every glyph is rasterised once (alpha mask per size) and reused for every
/// later draw and measurement; ASCII glyphs and ASCII kerning pairs live in
/// flat arrays because labels, amounts and keys are nearly all ASCII.
/// Text with right-to-left or complex-script letters is ordered by FriBidi
/// and shaped by HarfBuzz instead (``TextRoute``); its glyphs are cached by
/// glyph index and its lines per (text, ``paragraphDirection``).
/// Obtain fonts from ``FontLibrary/font(_:pixelSize:)``. Not thread-safe.
public final class Font {
    public let typeface: Typeface
    public let weight: FontWeight
    /// The em size in pixels handed to FreeType.
    public let pixelSize: Int
    /// Pixels from the top of the line box to the baseline.
    public let ascender: Int
    /// Pixels from the baseline to the bottom of the line box (positive).
    public let descender: Int
    /// Distance between successive baselines.
    public let lineHeight: Int

    private var asciiGlyphs: [GlyphMask?] = Array(repeating: nil, count: 128)
    private var otherGlyphs: [Unicode.Scalar: GlyphMask] = [:]
    /// 128x128 ASCII pair kerning in 26.6, `Int32.min` until looked up.
    private var asciiKerning: [Int32]
    private let hasKerning: Bool
    /// Lines already broken at a width (``truncated(_:toWidth:)``, ``wrapped(_:toWidth:maxLines:)``).
    var breaks = LineBreaks()
    /// Masks of shaped text by glyph index: a joined Arabic form has no scalar of its own.
    private var indexedGlyphs: [UInt32: GlyphMask] = [:]
    /// Shaped text by (text, direction).
    var shapedLines = ShapedLines()
    /// Made on the first shaped text, so Latin-only fonts hold no HarfBuzz font.
    lazy var shaper: RunShaper = {
        selectPixelSize()
        return RunShaper(typeface: typeface)
    }()
    /// The base direction shaped text is ordered in, its ``FontLibrary``'s
    /// ``FontLibrary/paragraphDirection``. Widths and line breaks of shaped
    /// text can depend on it, so a change forgets them.
    public internal(set) var paragraphDirection: TextDirection {
        didSet { if paragraphDirection != oldValue { breaks = LineBreaks() } }
    }
    /// Look-up counts since creation or the last ``resetStatistics()``.
    public internal(set) var statistics = GlyphCacheStatistics()
    /// Masks cached and their coverage bytes; ``resetStatistics()`` leaves them, as the masks stay.
    private var cachedGlyphs = 0
    private var cachedMaskBytes = 0

    init(typeface: Typeface, weight: FontWeight, pixelSize: Int, paragraphDirection: TextDirection = .leftToRight) {
        precondition(pixelSize > 0, "font pixel size must be positive")
        self.typeface = typeface
        self.paragraphDirection = paragraphDirection
        self.weight = weight
        self.pixelSize = pixelSize
        typeface.select(pixelSize: pixelSize)
        let metrics = typeface.face.pointee.size.pointee.metrics
        ascender = (Int(metrics.ascender) + 63) >> 6
        descender = (-Int(metrics.descender) + 63) >> 6
        lineHeight = max(ascender + descender, (Int(metrics.height) + 63) >> 6)
        hasKerning = typeface.hasKerning
        asciiKerning = hasKerning ? Array(repeating: Int32.min, count: 128 * 128) : []
    }

    /// The cached mask for `scalar`, rasterising it on first use.
    @inline(__always)
    public func glyph(_ scalar: Unicode.Scalar) -> GlyphMask {
        let value = Int(scalar.value)
        if value < 128, let cached = asciiGlyphs[value] {
            statistics.hits += 1
            return cached
        }
        if value >= 128, let cached = otherGlyphs[scalar] {
            statistics.hits += 1
            return cached
        }
        statistics.misses += 1
        let mask = rasterise(scalar)
        cachedGlyphs += 1
        cachedMaskBytes += mask.coverage.count
        if value < 128 { asciiGlyphs[value] = mask } else { otherGlyphs[scalar] = mask }
        return mask
    }

    /// The cached mask of the glyph at `index` in the face, for shaped text.
    func glyph(index: UInt32) -> GlyphMask {
        if let cached = indexedGlyphs[index] {
            statistics.hits += 1
            return cached
        }
        statistics.misses += 1
        let mask = rasterise(index: index)
        cachedGlyphs += 1
        cachedMaskBytes += mask.coverage.count
        indexedGlyphs[index] = mask
        return mask
    }

    /// Kerning between two adjacent glyphs in 26.6; 0 when the face has none.
    @inline(__always)
    func kerning(_ left: Unicode.Scalar, _ right: Unicode.Scalar, _ leftGlyph: GlyphMask, _ rightGlyph: GlyphMask) -> Int {
        guard hasKerning else { return 0 }
        let l = Int(left.value), r = Int(right.value)
        if l < 128 && r < 128 {
            let cached = asciiKerning[l << 7 | r]
            if cached != Int32.min { return Int(cached) }
            let value = lookUpKerning(leftGlyph.glyphIndex, rightGlyph.glyphIndex)
            asciiKerning[l << 7 | r] = Int32(value)
            return value
        }
        return lookUpKerning(leftGlyph.glyphIndex, rightGlyph.glyphIndex)
    }

    /// Starts counting hits and misses from zero (for steady-state measurement).
    public func resetStatistics() { statistics = GlyphCacheStatistics() }

    /// What this font's cache holds now.
    public var cacheSize: GlyphCacheSize {
        var compositeBytes = 0
        for case let mask? in asciiGlyphs { compositeBytes += mask.compositeBytes }
        for mask in otherGlyphs.values { compositeBytes += mask.compositeBytes }
        for mask in indexedGlyphs.values { compositeBytes += mask.compositeBytes }
        return GlyphCacheSize(fonts: 1, glyphs: cachedGlyphs, maskBytes: cachedMaskBytes,
                              kerningBytes: asciiKerning.count * MemoryLayout<Int32>.stride, compositeBytes: compositeBytes)
    }

    private func lookUpKerning(_ left: UInt32, _ right: UInt32) -> Int {
        typeface.select(pixelSize: pixelSize)
        var delta = FT_Vector()
        guard FT_Get_Kerning(typeface.face, left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 else {
            return 0
        }
        return Int(delta.x)
    }

    /// Sets the shared face to this font's size before FreeType or HarfBuzz reads it.
    func selectPixelSize() { typeface.select(pixelSize: pixelSize) }

    private func rasterise(_ scalar: Unicode.Scalar) -> GlyphMask {
        typeface.select(pixelSize: pixelSize)
        return rasterise(index: FT_Get_Char_Index(typeface.face, FT_ULong(scalar.value)))
    }

    private func rasterise(index: UInt32) -> GlyphMask {
        typeface.select(pixelSize: pixelSize)
        let face = typeface.face
        // A glyph that fails to load draws as nothing rather than stopping the counter screen.
        guard FT_Load_Glyph(face, index, cft_load_render_light()) == 0, let slot = face.pointee.glyph else {
            return GlyphMask(glyphIndex: index, width: 0, height: 0, left: 0, top: 0, advance: 0, coverage: [])
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer, width > 0, height > 0 {
            for y in 0..<height {
                let sourceRow = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * -pitch
                for x in 0..<width { coverage[y * width + x] = sourceRow[x] }
            }
        }
        return GlyphMask(
            glyphIndex: index, width: width, height: height,
            left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Int(slot.pointee.advance.x), coverage: coverage)
    }
}
