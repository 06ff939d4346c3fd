extension Font {
    /// The ellipsis appended to truncated text.
    public static let ellipsis = "\u{2026}"

    /// The advance width of `text` in pixels, kerning included.
    ///
    /// Uses the same glyph advances and kerning as ``Canvas/drawText(_:font:color:baseline:)``,
    /// so a measured box holds exactly what is drawn.
    /// Text with right-to-left or complex-script letters is measured as it
    /// is shaped and ordered for the ``FontLibrary/paragraphDirection``.
    public func width<S: StringProtocol>(of text: S) -> Int {
        switch TextRoute(text) {
        case .scalars: scalarWidth(of: text)
        case .scalarsWithoutMarks: scalarWidth(of: TextRoute.withoutMarks(text))
        case .shaped: shapedLine(String(text)).width
        }
    }

    /// The width of text that needs no shaping: a glyph per scalar, kerned in pairs.
    private func scalarWidth<S: StringProtocol>(of text: S) -> Int {
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

    /// The advance width of `text`, remembered: layout measures the same
    /// strings on every pass and every frame.
    public func width(of text: String) -> Int {
        if let known = breaks.widths[text] { return known }
        let measured = width(of: Substring(text))
        breaks.remember(width: measured, of: text)
        return measured
    }

    /// The line box of `text` drawn with its baseline at `baseline`.
    public func bounds<S: StringProtocol>(of text: S, baseline: Point) -> Rect {
        Rect(x: baseline.x, y: baseline.y - ascender, width: width(of: text), height: ascender + descender)
    }

    /// `text` if it fits in `maxWidth`, else the longest prefix that fits with an ellipsis.
    ///
    /// Remembered (``breaks``): layout asks the same question for every
    /// measure and every frame.
    public func truncated(_ text: String, toWidth maxWidth: Int) -> String {
        let key = LineBreaks.Key(text: text, width: maxWidth, limit: .truncatedLine)
        if let known = breaks.lines[key] { return known[0] }
        let result = breakTruncating(text, toWidth: maxWidth)
        breaks.remember([result], for: key)
        return result
    }

    private func breakTruncating(_ text: String, toWidth maxWidth: Int) -> String {
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
    /// ellipsis when text was cut. Each line is ordered on its own
    /// (``VisualRun``), so a line that starts inside an isolate or an
    /// embedding opened on an earlier line of its paragraph opens it again:
    /// a path isolated left to right in Arabic stays left to right on every
    /// line it wraps onto (UAX #9 resolves levels per paragraph, before the
    /// lines are broken).
    public func wrapped(_ text: String, toWidth maxWidth: Int, maxLines: Int? = nil) -> [String] {
        let key = LineBreaks.Key(text: text, width: maxWidth, limit: .wrapped(maxLines: maxLines))
        if let known = breaks.lines[key] { return known }
        let result = breakWrapping(text, toWidth: maxWidth, maxLines: maxLines)
        breaks.remember(result, for: key)
        return result
    }

    private func breakWrapping(_ text: String, toWidth maxWidth: Int, maxLines: Int?) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let paragraphStart = lines.count
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
            Self.reopenBidiContext(&lines[paragraphStart...])
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

extension Font {
    /// Starts each of a paragraph's `lines` with the isolates (LRI, RLI,
    /// FSI) and embeddings (LRE, RLE, LRO, RLO) still open where the line
    /// before it ended. Bidi controls draw as nothing and take no width.
    static func reopenBidiContext(_ lines: inout ArraySlice<String>) {
        var open: [Unicode.Scalar] = []
        for index in lines.indices {
            let carried = String(String.UnicodeScalarView(open))
            for scalar in lines[index].unicodeScalars {
                switch scalar.value {
                case 0x2066...0x2068, 0x202A, 0x202B, 0x202D, 0x202E: open.append(scalar)
                // PDI closes the latest isolate and any embedding opened inside it; PDF the latest embedding.
                case 0x2069:
                    if let isolate = open.lastIndex(where: { (0x2066...0x2068).contains($0.value) }) { open.removeSubrange(isolate...) }
                case 0x202C:
                    if let last = open.last, !(0x2066...0x2068).contains(last.value) { open.removeLast() }
                default: break
                }
            }
            if !carried.isEmpty { lines[index] = carried + lines[index] }
        }
    }
}

/// Texts already measured or broken into lines at a width, per font: what layout asks
/// again and again (a stack measures, squeezes and places the same label)
/// is worked out once. Bounded: forgotten all at once past ``limit``.
struct LineBreaks {
    struct Key: Hashable {
        let text: String
        let width: Int
        let limit: Limit
    }

    enum Limit: Hashable {
        /// ``Font/truncated(_:toWidth:)``.
        case truncatedLine
        /// ``Font/wrapped(_:toWidth:maxLines:)``.
        case wrapped(maxLines: Int?)
    }

    var lines: [Key: [String]] = [:]
    var widths: [String: Int] = [:]
    static let limit = 4096

    mutating func remember(_ broken: [String], for key: Key) {
        if lines.count >= Self.limit { lines.removeAll(keepingCapacity: true) }
        lines[key] = broken
    }

    mutating func remember(width: Int, of text: String) {
        if widths.count >= Self.limit { widths.removeAll(keepingCapacity: true) }
        widths[text] = width
    }
}
