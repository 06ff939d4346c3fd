extension Font {
    /// The ellipsis appended to truncated text.
    public static let ellipsis = "\u{2026}"

    /// The advance width of `text` in pixels, kerning included.
    ///
    /// Uses the same glyph advances and kerning as ``Canvas/drawText(_:font:color:baseline:)``,
    /// so a measured box holds exactly what is drawn.
    public func width<S: StringProtocol>(of text: S) -> Int {
        var pen = 0
        var previous: (Unicode.Scalar, GlyphMask)?
        for scalar in text.unicodeScalars {
            let glyph = self.glyph(scalar)
            if let (p, g) = previous { pen += kerning(p, scalar, g, glyph) }
            pen += glyph.advance
            previous = (scalar, glyph)
        }
        return (pen + 32) >> 6
    }

    /// The line box of `text` drawn with its baseline at `baseline`.
    public func bounds<S: StringProtocol>(of text: S, baseline: Point) -> Rect {
        Rect(x: baseline.x, y: baseline.y - ascender, width: width(of: text), height: ascender + descender)
    }

    /// `text` if it fits in `maxWidth`, else the longest prefix that fits with an ellipsis.
    public func truncated(_ text: String, toWidth maxWidth: Int) -> String {
        if width(of: text) <= maxWidth { return text }
        var prefix = Substring(text)
        while !prefix.isEmpty {
            prefix = prefix.dropLast()
            let trimmed = prefix.hasSuffix(" ") ? prefix.dropLast() : prefix
            let candidate = trimmed + Font.ellipsis
            if width(of: candidate) <= maxWidth { return String(candidate) }
        }
        return width(of: Font.ellipsis) <= maxWidth ? Font.ellipsis : ""
    }

    /// Breaks `text` into lines no wider than `maxWidth`, at spaces where possible.
    ///
    /// Explicit newlines are kept. A word wider than a whole line is split
    /// between characters. With `maxLines`, the last kept line ends in an
    /// ellipsis when text was cut.
    public func wrapped(_ text: String, toWidth maxWidth: Int, maxLines: Int? = nil) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if width(of: candidate) <= maxWidth {
                    line = candidate
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                line = String(word)
                while width(of: line) > maxWidth && line.count > 1 {
                    var head = line
                    while width(of: head) > maxWidth && head.count > 1 { head.removeLast() }
                    lines.append(head)
                    line = String(line.dropFirst(head.count))
                }
            }
            lines.append(line)
        }
        if let maxLines, lines.count > maxLines {
            var kept = Array(lines.prefix(max(0, maxLines)))
            // truncated() keeps the appended ellipsis when it fits and shortens the line when not.
            if let last = kept.popLast() { kept.append(truncated(last + Font.ellipsis, toWidth: maxWidth)) }
            return kept
        }
        return lines
    }
}
