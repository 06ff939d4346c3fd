extension Font {
    /// `text` ordered for the font's paragraph direction and shaped,
    /// remembered per (text, direction).
    func shapedLine(_ text: String) -> ShapedLine {
        let key = ShapedLines.Key(text: text, direction: paragraphDirection)
        if let known = shapedLines.lines[key] {
            // Every glyph of a remembered line is a cached mask served again.
            statistics.hits += known.glyphs.count
            return known
        }
        let line = shape(text)
        shapedLines.remember(line, for: key)
        shapedLines.shaped += 1
        return line
    }

    private func shape(_ text: String) -> ShapedLine {
        let scalars = text.unicodeScalars.map(\.value)
        var glyphs: [ShapedLine.Glyph] = []
        glyphs.reserveCapacity(scalars.count)
        var pen = 0
        for run in VisualRun.visualRuns(of: scalars, direction: paragraphDirection) {
            selectPixelSize()
            shaper.shape(scalars, range: run.range, rightToLeft: run.rightToLeft) { index, advance, xOffset, yOffset in
                glyphs.append(ShapedLine.Glyph(mask: glyph(index: index), x: pen + xOffset, y: yOffset))
                pen += advance
            }
        }
        return ShapedLine(glyphs: glyphs, advance: pen)
    }
}
