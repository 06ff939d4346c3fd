extension Canvas {
    /// Draws one line of `text` with the pen starting at `baseline`.
    ///
    /// Glyph masks come from the font's cache and are blended a row at a
    /// time (``blendSpan``), so text on any background costs one pass over
    /// each mask.
    /// - Returns: The advance width drawn, equal to ``Font/width(of:)``.
    /// Text with right-to-left or complex-script letters is drawn shaped and
    /// ordered for the font library's ``FontLibrary/paragraphDirection``.
    @discardableResult
    public func drawText<S: StringProtocol>(_ text: S, font: Font, color: Color, baseline: Point) -> Int {
        switch TextRoute(text) {
        case .scalars: drawScalars(text, font: font, color: color, baseline: baseline)
        case .scalarsWithoutMarks: drawScalars(TextRoute.withoutMarks(text), font: font, color: color, baseline: baseline)
        case .shaped: drawShaped(font.shapedLine(String(text)), font: font, color: color, baseline: baseline)
        }
    }

    /// Text that needs no shaping: a glyph per scalar, kerned in pairs.
    private func drawScalars<S: StringProtocol>(_ text: S, font: Font, color: Color, baseline: Point) -> Int {
        let clip = self.clip
        let src = color.xrgb
        let colorAlpha = UInt32(color.alpha)
        // Lines outside the clip still need their width, but not their pixels.
        let lineBox = Rect(x: clip.minX, y: baseline.y - font.ascender - 2, width: clip.width,
                           height: font.ascender + font.descender + 4)
        let visible = lineBox.intersects(clip) && colorAlpha > 0
        var pen = baseline.x << 6
        var previous: (Unicode.Scalar, GlyphMask)?
        for scalar in text.unicodeScalars {
            let glyph = font.glyph(scalar)
            if let (p, g) = previous { pen += font.kerning(p, scalar, g, glyph) }
            if visible && glyph.width > 0 {
                let x0 = ((pen + 32) >> 6) + glyph.left
                let y0 = baseline.y - glyph.top
                drawMask(glyph, x: x0, y: y0, src: src, colorAlpha: colorAlpha, clip: clip)
            }
            pen += glyph.advance
            previous = (scalar, glyph)
        }
        return ((pen + 32) >> 6) - baseline.x
    }

    /// A shaped line: its glyphs were placed left to right by HarfBuzz and FriBidi.
    private func drawShaped(_ line: ShapedLine, font: Font, color: Color, baseline: Point) -> Int {
        let clip = self.clip
        let src = color.xrgb
        let colorAlpha = UInt32(color.alpha)
        let lineBox = Rect(x: clip.minX, y: baseline.y - font.ascender - 2, width: clip.width,
                           height: font.ascender + font.descender + 4)
        if lineBox.intersects(clip) && colorAlpha > 0 {
            let start = baseline.x << 6
            for glyph in line.glyphs where glyph.mask.width > 0 {
                let x0 = ((start + glyph.x + 32) >> 6) + glyph.mask.left
                let y0 = baseline.y - ((glyph.y + 32) >> 6) - glyph.mask.top
                drawMask(glyph.mask, x: x0, y: y0, src: src, colorAlpha: colorAlpha, clip: clip)
            }
        }
        return line.width
    }

    /// Draws `text` vertically centred in `rect` with the given alignment,
    /// truncating with an ellipsis when it is wider than the rect.
    public func drawText(_ text: String, font: Font, color: Color, in rect: Rect, alignment: TextAlignment = .leading) {
        let line = font.truncated(text, toWidth: rect.width)
        let x = alignment.lineStart(width: font.width(of: line), in: rect)
        let baseline = rect.minY + (rect.height - (font.ascender + font.descender)) / 2 + font.ascender
        drawText(line, font: font, color: color, baseline: Point(x: x, y: baseline))
    }

    /// Draws one glyph's mask with its top left at (`x0`, `y0`).
    ///
    /// Text in an opaque colour on a plain panel (every pixel under the
    /// glyph's box the same colour) copies the glyph already blended over
    /// that colour (``GlyphMask/composite(_:over:)``): a look at the box
    /// and a copy of it instead of a blend per pixel. Anything else (a
    /// translucent colour, text over an edge or another glyph) is blended.
    @inline(__always)
    private func drawMask(_ glyph: GlyphMask, x x0: Int, y y0: Int, src: UInt32, colorAlpha: UInt32, clip: Rect) {
        let box = Rect(x: x0, y: y0, width: glyph.width, height: glyph.height).intersection(clip)
        guard !box.isEmpty else { return }
        if colorAlpha == 255, let background = plainColor(of: box) {
            glyph.composite(src, over: background).withUnsafeBufferPointer { pixels in
                let base = pixels.baseAddress!
                for y in box.minY..<box.maxY {
                    (surface.row(y) + box.minX).update(from: base + (y - y0) * glyph.width + (box.minX - x0), count: box.width)
                }
            }
            return
        }
        glyph.coverage.withUnsafeBufferPointer { coverage in
            let base = coverage.baseAddress!
            for y in box.minY..<box.maxY {
                blendSpan(base + (y - y0) * glyph.width + (box.minX - x0), into: surface.row(y) + box.minX,
                          count: box.width, src: src, colorAlpha: colorAlpha)
            }
        }
    }

    /// The one colour of every pixel in `box` (inside the surface), or nil
    /// when two differ.
    @inline(__always)
    private func plainColor(of box: Rect) -> UInt32? {
        let first = surface.row(box.minY)[box.minX]
        let four = SIMD4<UInt32>(repeating: first)
        for y in box.minY..<box.maxY {
            let row = surface.row(y) + box.minX
            var x = 0
            while x &+ 4 <= box.width {
                if UnsafeRawPointer(row + x).loadUnaligned(as: SIMD4<UInt32>.self) != four { return nil }
                x &+= 4
            }
            while x < box.width {
                if row[x] != first { return nil }
                x &+= 1
            }
        }
        return first
    }
}
