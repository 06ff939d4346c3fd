/// One line of text after bidi ordering and shaping: its glyphs in screen
/// order, left to right, each with its place relative to the line's start.
/// What ``Font/width(of:)`` measures and ``Canvas/drawText(_:font:color:baseline:)`` draws.
struct ShapedLine {
    struct Glyph {
        let mask: GlyphMask
        /// From the line's start to this glyph's pen position plus HarfBuzz's offset, 26.6.
        let x: Int
        /// Raise above the baseline (marks over letters), 26.6.
        let y: Int
    }

    let glyphs: [Glyph]
    /// The pen advance of the whole line, 26.6.
    let advance: Int

    /// The advance in whole pixels, rounded as the scalar path rounds it.
    var width: Int { (advance + 32) >> 6 }
}

/// Lines already shaped, per font, by text and paragraph direction: a
/// label redrawn every frame is ordered and shaped once. Bounded like
/// ``LineBreaks``: forgotten all at once past ``limit``.
struct ShapedLines {
    struct Key: Hashable {
        let text: String
        let direction: TextDirection
    }

    var lines: [Key: ShapedLine] = [:]
    /// Lines ordered and shaped since the font was made: what the memory saves is counted here.
    var shaped = 0
    static let limit = 4096

    mutating func remember(_ line: ShapedLine, for key: Key) {
        if lines.count >= Self.limit { lines.removeAll(keepingCapacity: true) }
        lines[key] = line
    }
}
