import TellerConfiguration
import Graphics
import TellerCore

/// The glyph cache over a whole in-process scenario run, from the cold cache
/// of a new terminal, as `teller scenario` prints it at the end.
///
/// It counts the look-ups the terminal makes for itself: its frames' layout
/// and drawing, and the hit test of each touch. QA's own look-ups (polling
/// the screen for `expect`, `ctl tap` finding an element, screenshots) are
/// counted apart and their hits left out; their misses stay in, since the
/// panel needs those glyphs too and QA only met them first. The frame's
/// look-up after such a miss then counts as a hit, so the rate may be high
/// by at most one look-up per glyph cached.
public struct GlyphCacheReport: Sendable {
    /// The terminal's look-ups, over every terminal of the run.
    public var lookups = GlyphCacheStatistics()
    /// What the caches hold at the end, summed over every terminal of the run.
    public var size = GlyphCacheSize()
    /// Frames presented, over every terminal of the run.
    public var frames = 0
    /// Terminals in the run: a power cut builds a new one, with a cold cache.
    public var terminals = 1

    public init() {}
    /// Misses while each screen was on top, in the order the screens first showed;
    /// a restarted terminal's cold misses on a screen already seen count as later.
    private(set) var screens: [Screen] = []

    public struct Screen: Equatable, Sendable {
        public let name: String
        /// Misses until another screen first replaced it.
        public var firstShown: Int
        /// Misses while it was on top again, later.
        public var later: Int
    }

    private var current: String?

    /// Counts `misses`, made since the last call, against `screen`, the screen on top now.
    public mutating func count(misses: Int, on screen: String) {
        defer { current = screen }
        if let index = screens.firstIndex(where: { $0.name == screen }) {
            if index == screens.count - 1 && current == screen {
                screens[index].firstShown += misses
            } else {
                screens[index].later += misses
            }
        } else {
            screens.append(Screen(name: screen, firstShown: misses, later: 0))
        }
    }

    public var lines: [String] {
        let restarts = terminals == 1 ? "" : "; \(terminals) terminals, as a power cut restarts it with a cold cache"
        var lines = [
            "glyph cache: \(lookups.hits + lookups.misses) look-ups by the terminal, \(lookups.hits) hits, \(lookups.misses) misses, "
                + "hit rate \(lookups.hitRate.fixed(decimals: 4)) (from cold\(restarts); QA's own hits left out)",
            "glyph cache: \(frames) frames presented, \(frames == 0 ? 0 : (lookups.hits + lookups.misses) / frames) look-ups per frame "
                + "(a layout measures text as well as drawing it)",
            "glyph cache: \(size.glyphs) glyphs in \(size.fonts) fonts, \(size.bytes) bytes (masks \(size.maskBytes), "
                + "ASCII kerning tables \(size.kerningBytes), glyphs blended over a panel \(size.compositeBytes)); "
                + "masks and kerning kept for the process's life, at most four blended panels a glyph",
        ]
        if !screens.isEmpty {
            let each = screens.map { $0.later == 0 ? "\($0.name) \($0.firstShown)" : "\($0.name) \($0.firstShown) (+\($0.later) later)" }
            lines.append("glyph cache: misses when each screen first showed: " + each.joined(separator: ", "))
        }
        return lines
    }
}
