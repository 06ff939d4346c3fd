/// How often glyph look-ups found a cached mask; measuring text (layout)
/// and drawing it both look glyphs up. `teller-bench` reports the rate.
public struct GlyphCacheStatistics: Hashable, Sendable {
    public var hits: Int
    public var misses: Int

    public init(hits: Int = 0, misses: Int = 0) {
        self.hits = hits
        self.misses = misses
    }

    /// Hits over all look-ups; 1 when nothing was looked up yet.
    public var hitRate: Double {
        let total = hits + misses
        return total == 0 ? 1 : Double(hits) / Double(total)
    }

    public static func + (a: GlyphCacheStatistics, b: GlyphCacheStatistics) -> GlyphCacheStatistics {
        GlyphCacheStatistics(hits: a.hits + b.hits, misses: a.misses + b.misses)
    }
}
