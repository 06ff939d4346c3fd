import Graphics
import Testing

/// The row-at-a-time blends (glyph masks, rounded corners) give the very
/// pixels of the one-pixel-at-a-time ``Canvas/blend(x:y:_:coverage:)`` they
/// replaced, on any background (top bytes included), in any clip, in opaque
/// and translucent colours.
@Suite struct FastPathTests {
    /// A surface of pseudo-random pixels, top bytes included.
    func noise(_ width: Int, _ height: Int, seed: UInt64) -> Surface {
        let surface = Surface(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                surface[x, y] = UInt32(truncatingIfNeeded: state >> 32)
            }
        }
        return surface
    }

    func copy(_ surface: Surface) -> Surface {
        let other = Surface(size: surface.size)
        other.copy(surface.bounds, from: surface)
        return other
    }

    func sameFirstDifference(_ a: Surface, _ b: Surface) -> String? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                return "(\(x), \(y)): \(String(a[x, y], radix: 16)) against \(String(b[x, y], radix: 16))"
            }
        }
        return nil
    }

    /// The coverage the corners had before their tables: one square root and rounding per pixel.
    func cornerCoverage(column: Int, row: Int, radius: Double, innerRadius: Double?) -> UInt8 {
        let dx = radius - (Double(column) + 0.5)
        let dy = radius - (Double(row) + 0.5)
        let distance = (dx * dx + dy * dy).squareRoot()
        var coverage = max(0, min(1, radius - distance + 0.5))
        if let innerRadius { coverage -= max(0, min(1, innerRadius - distance + 0.5)) }
        return UInt8((max(0, coverage) * 255).rounded())
    }

    /// fillRoundedRect as it was: rows filled, every corner pixel blended on its own.
    func referenceFill(_ canvas: Canvas, _ rect: Rect, radius: Int, _ color: Color) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else { return canvas.fill(rect, color) }
        // Nothing of it inside the clip: nothing drawn.
        if rect.intersects(canvas.clip) {
            canvas.fill(Rect(x: rect.minX, y: rect.minY + r, width: rect.width, height: rect.height - 2 * r), color)
            for i in 0..<r {
                canvas.fill(Rect(x: rect.minX + r, y: rect.minY + i, width: rect.width - 2 * r, height: 1), color)
                canvas.fill(Rect(x: rect.minX + r, y: rect.maxY - 1 - i, width: rect.width - 2 * r, height: 1), color)
                for j in 0..<r {
                    let c = cornerCoverage(column: j, row: i, radius: Double(r), innerRadius: nil)
                    canvas.blend(x: rect.minX + j, y: rect.minY + i, color, coverage: c)
                    canvas.blend(x: rect.maxX - 1 - j, y: rect.minY + i, color, coverage: c)
                    canvas.blend(x: rect.minX + j, y: rect.maxY - 1 - i, color, coverage: c)
                    canvas.blend(x: rect.maxX - 1 - j, y: rect.maxY - 1 - i, color, coverage: c)
                }
            }
        }
    }

    /// strokeRoundedRect's corners as they were (its straight strips are plain fills).
    func referenceStroke(_ canvas: Canvas, _ rect: Rect, radius: Int, width: Int, _ color: Color) {
        // Nothing to stroke, or nothing of it inside the clip: nothing drawn.
        if width > 0, !rect.isEmpty, rect.intersects(canvas.clip) {
            if width * 2 >= min(rect.width, rect.height) { return referenceFill(canvas, rect, radius: radius, color) }
            var r = max(0, min(radius, rect.width / 2, rect.height / 2))
            if r < width { r = 0 }
            let corner = max(r, width)
            canvas.fill(Rect(x: rect.minX + corner, y: rect.minY, width: rect.width - 2 * corner, height: width), color)
            canvas.fill(Rect(x: rect.minX + corner, y: rect.maxY - width, width: rect.width - 2 * corner, height: width), color)
            canvas.fill(Rect(x: rect.minX, y: rect.minY + corner, width: width, height: rect.height - 2 * corner), color)
            canvas.fill(Rect(x: rect.maxX - width, y: rect.minY + corner, width: width, height: rect.height - 2 * corner), color)
            if r == 0 {
                for (x, y) in [(rect.minX, rect.minY), (rect.maxX - width, rect.minY),
                               (rect.minX, rect.maxY - width), (rect.maxX - width, rect.maxY - width)] {
                    canvas.fill(Rect(x: x, y: y, width: width, height: width), color)
                }
                return
            }
            for i in 0..<r {
                for j in 0..<r {
                    let c = cornerCoverage(column: j, row: i, radius: Double(r), innerRadius: Double(r - width))
                    canvas.blend(x: rect.minX + j, y: rect.minY + i, color, coverage: c)
                    canvas.blend(x: rect.maxX - 1 - j, y: rect.minY + i, color, coverage: c)
                    canvas.blend(x: rect.minX + j, y: rect.maxY - 1 - i, color, coverage: c)
                    canvas.blend(x: rect.maxX - 1 - j, y: rect.maxY - 1 - i, color, coverage: c)
                }
            }
        }
    }

    static let colors = [Color(argb: 0xFF1D_5FA8), Color(argb: 0x80E0_4020), Color(argb: 0x0130_3030), Color(argb: 0x0000_0000)]
    static let clips = [Rect(x: 0, y: 0, width: 90, height: 70), Rect(x: 13, y: 9, width: 23, height: 31), Rect(x: 40, y: 0, width: 3, height: 70)]

    @Test(arguments: colors.indices)
    func roundedRectsMatchThePixelByPixelCorners(_ colorIndex: Int) throws {
        let color = Self.colors[colorIndex]
        for radius in [1, 2, 5, 8, 12, 17, 40] {
            for (n, clip) in Self.clips.enumerated() {
                for rect in [Rect(x: 5, y: 4, width: 61, height: 38), Rect(x: 30, y: 20, width: 25, height: 25), Rect(x: -7, y: 50, width: 40, height: 33)] {
                    for width in [0, 1, 2, 3] {
                        let background = noise(90, 70, seed: UInt64(radius * 131 + n))
                        let fast = copy(background), slow = copy(background)
                        let fastCanvas = Canvas(surface: fast), slowCanvas = Canvas(surface: slow)
                        fastCanvas.pushClip(clip)
                        slowCanvas.pushClip(clip)
                        if width == 0 {
                            fastCanvas.fillRoundedRect(rect, radius: radius, color)
                            referenceFill(slowCanvas, rect, radius: radius, color)
                        } else {
                            fastCanvas.strokeRoundedRect(rect, radius: radius, width: width, color)
                            referenceStroke(slowCanvas, rect, radius: radius, width: width, color)
                        }
                        let difference = sameFirstDifference(fast, slow)
                        #expect(difference == nil, "radius \(radius), width \(width), \(rect) in \(clip): \(difference ?? "")")
                    }
                }
            }
        }
    }

    @Test(arguments: colors.indices)
    func glyphsMatchThePixelByPixelBlend(_ colorIndex: Int) throws {
        try checkGlyphs(Self.colors[colorIndex]) { n, origin in noise(90, 70, seed: UInt64(n * 7 + origin.x + 10)) }
    }

    /// On a plain panel an opaque glyph is copied from the glyph blended over
    /// that colour once (``GlyphMask``'s composites): five panels in turn,
    /// top bytes included, so the fifth replaces the one used least recently
    /// and later draws meet both kept and replaced composites.
    @Test(arguments: colors.indices)
    func glyphsOnAPlainPanelMatchThePixelByPixelBlend(_ colorIndex: Int) throws {
        let panels: [UInt32] = [0xFFF4_F5F7, 0x0012_3456, 0xFF00_0000, 0xFFFF_FFFF, 0x80C0_FFEE]
        try checkGlyphs(Self.colors[colorIndex]) { n, origin in
            let surface = Surface(width: 90, height: 70)
            for y in 0..<surface.height {
                for x in 0..<surface.width { surface[x, y] = panels[abs(n + origin.x) % panels.count] }
            }
            return surface
        }
    }

    /// Draws glyphs of two fonts, in three clips at three origins, over
    /// `background(clip index, origin)`, and compares each with the same
    /// mask blended pixel by pixel.
    func checkGlyphs(_ color: Color, over background: (Int, Point) -> Surface) throws {
        let fonts = try FontLibrary()
        for font in [fonts.font(.regular, pixelSize: 15), fonts.font(.bold, pixelSize: 41)] {
            for scalar in ["g", "W", "8", "\u{20AC}", "\u{232B}", "i"] {
                let glyph = font.glyph(scalar.unicodeScalars.first!)
                for (n, clip) in Self.clips.enumerated() {
                    for origin in [Point(x: 20, y: 45), Point(x: 38, y: 20), Point(x: -3, y: 66)] {
                        let background = background(n, origin)
                        let fast = copy(background), slow = copy(background)
                        let fastCanvas = Canvas(surface: fast), slowCanvas = Canvas(surface: slow)
                        fastCanvas.pushClip(clip)
                        slowCanvas.pushClip(clip)
                        fastCanvas.drawText(scalar, font: font, color: color, baseline: origin)
                        if color.alpha > 0 {
                            for y in 0..<glyph.height {
                                for x in 0..<glyph.width {
                                    slowCanvas.blend(x: origin.x + glyph.left + x, y: origin.y - glyph.top + y, color,
                                                     coverage: glyph.coverage[y * glyph.width + x])
                                }
                            }
                        }
                        let difference = sameFirstDifference(fast, slow)
                        #expect(difference == nil, "\(scalar) at \(font.pixelSize) px, \(origin) in \(clip): \(difference ?? "")")
                    }
                }
            }
        }
    }
}
