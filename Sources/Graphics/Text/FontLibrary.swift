import FoundationEssentials

/// Opens the configured font files once and hands out ``Font``s by weight and size.
///
/// Fonts are cached per (weight, pixel size), so a font and its glyph masks
/// are created once per size for the life of the process. Not thread-safe:
/// the UI renders on one thread.
public final class FontLibrary {
    public let configuration: FontConfiguration
    private let library: FreeTypeLibrary
    private var typefaces: [FontWeight: Typeface] = [:]
    /// Every font handed out. A screen uses a handful (7 at 1280x800), and
    /// layout asks for one with every label it measures: comparing two
    /// integers per font costs less than hashing a key.
    private var fonts: [Font] = []

    /// The base direction of every paragraph the library's fonts order:
    /// ``TextDirection/rightToLeft`` for an Arabic screen. Text with no
    /// right-to-left letter looks the same either way; a change reaches
    /// every font already handed out and forgets what depended on it.
    public var paragraphDirection: TextDirection = .leftToRight {
        didSet {
            guard paragraphDirection != oldValue else { return }
            for font in fonts { font.paragraphDirection = paragraphDirection }
        }
    }

    /// Opens every face in `configuration`.
    /// - Throws: ``FontError/missingFont(path:)`` naming the first file that
    ///   does not exist, or ``FontError/freeType(operation:path:code:)``.
    public init(configuration: FontConfiguration = .debian) throws {
        self.configuration = configuration
        library = try FreeTypeLibrary()
        for weight in FontWeight.allCases {
            let path = configuration.path(for: weight)
            guard FileManager.default.isReadableFile(atPath: path) else { throw FontError.missingFont(path: path) }
            typefaces[weight] = try Typeface(path: path, library: library)
        }
    }

    /// The font for `weight` at `pixelSize` (clamped to at least 1).
    public func font(_ weight: FontWeight, pixelSize: Int) -> Font {
        let pixelSize = max(1, pixelSize)
        for font in fonts where font.pixelSize == pixelSize && font.weight == weight { return font }
        let font = Font(typeface: typefaces[weight]!, weight: weight, pixelSize: pixelSize,
                        paragraphDirection: paragraphDirection)
        fonts.append(font)
        return font
    }

    /// Glyph-cache hits and misses summed over every font handed out.
    public var glyphCacheStatistics: GlyphCacheStatistics {
        fonts.reduce(GlyphCacheStatistics()) { $0 + $1.statistics }
    }

    /// What the caches of every font handed out hold now; nothing is ever evicted.
    public var glyphCacheSize: GlyphCacheSize {
        fonts.reduce(GlyphCacheSize()) { $0 + $1.cacheSize }
    }

    /// Zeroes the counters of every font, to measure a steady state.
    public func resetGlyphCacheStatistics() {
        for font in fonts { font.resetStatistics() }
    }
}
