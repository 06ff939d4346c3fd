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

    /// Breaking lines is remembered per font; a remembered answer must be
    /// the one a font that never saw the question works out, in any order,
    /// for every limit, and after the memory was forgotten for being full.
    @Test func rememberedLineBreaksAreTheOnesWorkedOut() {
        let texts = ["The deposit is queued and will be sent to the bank when the terminal is online again",
                     "DE89 3704 0044 0532 0130 00", "Anna Schmidt", "", "Withdrawal\nlimit reached"]
        let widths = Array(stride(from: 0, through: 420, by: 7))
        let limits: [Int?] = [nil, 0, 1, 2, 3, -1]
        let warm = freshFonts.font(.regular, pixelSize: 19)
        for text in texts { for width in widths { for limit in limits { _ = warm.wrapped(text, toWidth: width, maxLines: limit) } } }
        for text in texts { for width in widths { _ = warm.truncated(text, toWidth: width); _ = warm.width(of: String(text.prefix(width / 10))) } }
        var answers = 0
        for text in texts.reversed() {
            for width in widths.reversed() {
                let cold = freshFonts.font(.regular, pixelSize: 19)
                let prefix = String(text.prefix(width / 10))
                #expect(warm.width(of: prefix) == cold.width(of: Substring(prefix)), "width of \(prefix)")
                #expect(warm.truncated(text, toWidth: width) == cold.truncated(text, toWidth: width), "\(text) at \(width)")
                for limit in limits {
                    let fresh = freshFonts.font(.regular, pixelSize: 19)
                    #expect(warm.wrapped(text, toWidth: width, maxLines: limit) == fresh.wrapped(text, toWidth: width, maxLines: limit),
                            "\(text) at \(width), \(String(describing: limit)) lines")
                    answers += 1
                }
            }
        }
        // Past the bound the memory starts again; answers stay right.
        for n in 0..<5000 { _ = warm.truncated("row \(n)", toWidth: 40); _ = warm.width(of: "row \(n)") }
        #expect(warm.width(of: texts[1]) == freshFonts.font(.regular, pixelSize: 19).width(of: Substring(texts[1])))
        #expect(warm.wrapped(texts[0], toWidth: 200, maxLines: 2) == freshFonts.font(.regular, pixelSize: 19).wrapped(texts[0], toWidth: 200, maxLines: 2))
        #expect(answers == texts.count * widths.count * limits.count)
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
        #expect(size.bytes == size.maskBytes + size.kerningBytes + size.compositeBytes)
    }

    /// A glyph drawn in an opaque colour on a plain panel keeps its blend
    /// over that panel: counted in the cache size, at most four pairs a glyph.
    @Test func compositesOfAGlyphAreCountedAndAtMostFour() {
        let library = freshFonts
        let font = library.font(.bold, pixelSize: 30)
        let mask = font.glyph("W")
        let canvas = Canvas(surface: Surface(width: 60, height: 50))
        let pixels = mask.width * mask.height * 4
        #expect(pixels > 0)
        for (n, color) in [Color.white, .black, Color(red: 200, green: 0, blue: 0), Color(red: 0, green: 90, blue: 200),
                           Color(red: 10, green: 120, blue: 30)].enumerated() {
            canvas.fill(Rect(x: 0, y: 0, width: 60, height: 50), Color(red: 240, green: 240, blue: 230))
            canvas.drawText("W", font: font, color: color, baseline: Point(x: 5, y: 40))
            #expect(library.glyphCacheSize.compositeBytes == min(n + 1, 4) * pixels, "after colour \(n)")
        }
        // Over an edge (two colours under the box) the glyph is blended, and nothing is kept.
        canvas.fill(Rect(x: 0, y: 0, width: 20, height: 50), .black)
        canvas.drawText("W", font: font, color: Color(red: 1, green: 2, blue: 3), baseline: Point(x: 5, y: 40))
        #expect(library.glyphCacheSize.compositeBytes == 4 * pixels)
        #expect(library.glyphCacheSize.bytes == library.glyphCacheSize.maskBytes + library.glyphCacheSize.kerningBytes + 4 * pixels)
    }

    @Test func missingFontNamesThePath() {
        let configuration = FontConfiguration(directory: "/nonexistent/fonts")
        #expect(throws: FontError.missingFont(path: "/nonexistent/fonts/DejaVuSans.ttf")) {
            try FontLibrary(configuration: configuration)
        }
        #expect(FontError.missingFont(path: "/x/y.ttf").description.contains("/x/y.ttf"))
    }
}
