import Graphics
import Testing

@Suite struct TextTests {
    let fonts = freshFonts
    var font: Font { fonts.font(.regular, pixelSize: 22) }

    @Test(arguments: ["Balance 1,234.56 EUR", "AVATAR Wy", "gjpqy |[]", "00"])
    func measuredBoundsHoldTheDrawnInk(text: String) {
        let surface = Surface(width: 400, height: 60)
        let baseline = Point(x: 10, y: 40)
        let drawn = Canvas(surface: surface).drawText(text, font: font, color: .white, baseline: baseline)
        let measured = font.bounds(of: text, baseline: baseline)
        #expect(drawn == measured.width)
        let ink = inkBounds(of: surface, background: 0)
        // Side bearings may reach a pixel past the advance box; nothing more.
        #expect(ink.minX >= measured.minX - 1)
        #expect(ink.maxX <= measured.maxX + 1)
        #expect(ink.minY >= measured.minY)
        #expect(ink.maxY <= measured.maxY)
        #expect(ink.width >= measured.width - 4)
    }

    @Test func kerningPullsPairsTogether() throws {
        #expect(font.typeface.hasKerning)
        #expect(font.width(of: "AV") < font.width(of: "A") + font.width(of: "V"))
    }

    @Test func truncationEndsInAnEllipsisAndFits() {
        let text = "Transfer to savings account ending 4471"
        let cut = font.truncated(text, toWidth: 150)
        #expect(cut.hasSuffix(Font.ellipsis))
        #expect(font.width(of: cut) <= 150)
        #expect(font.truncated("Cash", toWidth: 150) == "Cash")
    }

    @Test func wrappingKeepsEveryWordAndEveryLineFits() {
        let text = "The deposit is queued and will be sent to the bank when the terminal is online again"
        let lines = font.wrapped(text, toWidth: 200)
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { font.width(of: $0) <= 200 })
        #expect(lines.joined(separator: " ") == text)
        let limited = font.wrapped(text, toWidth: 200, maxLines: 2)
        #expect(limited.count == 2)
        #expect(limited[1].hasSuffix(Font.ellipsis))
        #expect(font.width(of: limited[1]) <= 200)
    }

    @Test func glyphsAreRasterisedOnce() {
        let fresh = freshFonts.font(.bold, pixelSize: 31)
        fresh.resetStatistics()
        let surface = Surface(width: 300, height: 50)
        let canvas = Canvas(surface: surface)
        canvas.drawText("abcabc", font: fresh, color: .white, baseline: Point(x: 0, y: 40))
        let first = fresh.statistics
        canvas.drawText("abcabc", font: fresh, color: .white, baseline: Point(x: 0, y: 40))
        #expect(fresh.statistics.misses == first.misses)
        #expect(fresh.statistics.hits == first.hits + 6)
    }

    @Test func aGlyphMissesWhenFirstDrawnAndHitsAfter() {
        let library = freshFonts
        let font = library.font(.regular, pixelSize: 23)
        #expect(library.glyphCacheStatistics == GlyphCacheStatistics(hits: 0, misses: 0))
        #expect(library.glyphCacheSize == GlyphCacheSize(fonts: 1, glyphs: 0, maskBytes: 0, kerningBytes: 128 * 128 * 4))
        let canvas = Canvas(surface: Surface(width: 300, height: 50))
        canvas.drawText("abca", font: font, color: .white, baseline: Point(x: 0, y: 40))
        #expect(library.glyphCacheStatistics == GlyphCacheStatistics(hits: 1, misses: 3))
        canvas.drawText("abca", font: font, color: .white, baseline: Point(x: 0, y: 40))
        #expect(library.glyphCacheStatistics == GlyphCacheStatistics(hits: 5, misses: 3))

        // Resetting the counters leaves what the cache holds.
        library.resetGlyphCacheStatistics()
        #expect(library.glyphCacheStatistics == GlyphCacheStatistics(hits: 0, misses: 0))
        let size = library.glyphCacheSize
        #expect(size.glyphs == 3)
        let masks = "abc".unicodeScalars.map { font.glyph($0) }
        #expect(size.maskBytes == masks.reduce(0) { $0 + $1.width * $1.height })
        #expect(size.maskBytes > 0)
        #expect(size.bytes == size.maskBytes + size.kerningBytes)
    }

    @Test func missingFontNamesThePath() {
        let configuration = FontConfiguration(directory: "/nonexistent/fonts")
        #expect(throws: FontError.missingFont(path: "/nonexistent/fonts/DejaVuSans.ttf")) {
            try FontLibrary(configuration: configuration)
        }
        #expect(FontError.missingFont(path: "/x/y.ttf").description.contains("/x/y.ttf"))
    }
}
