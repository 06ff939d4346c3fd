@testable import Graphics
import Testing

/// Arabic through FriBidi and HarfBuzz: letters join, runs are ordered for
/// the paragraph direction, and every entry point agrees with what is drawn.
@Suite struct ShapingTests {
    let fonts = freshFonts
    var font: Font { fonts.font(.regular, pixelSize: 22) }

    /// Glyph indices of `text` as shaped, left to right on screen.
    func glyphIndices(_ text: String, in font: Font) -> [UInt32] {
        font.shapedLine(text).glyphs.map(\.mask.glyphIndex)
    }

    @Test func arabicLettersJoin() throws {
        let font = self.font
        let word = "سلام"
        let joined = glyphIndices(word, in: font)
        // Each letter shaped alone is its isolated form; on screen the last letter is leftmost.
        let isolated = word.unicodeScalars.reversed().flatMap { glyphIndices(String($0), in: font) }
        #expect(isolated.count == 4)
        // Seen takes its initial form and lam with alef becomes one ligature.
        #expect(joined.count == 3)
        #expect(joined != isolated)
        #expect(Set(joined).isDisjoint(with: isolated.dropFirst()))

        let width = font.width(of: word)
        let surface = Surface(width: width + 20, height: 40)
        Canvas(surface: surface).drawText(word, font: font, color: .white, baseline: Point(x: 10, y: 30))
        let letters = Surface(width: width + 60, height: 40)
        var x = 10
        for letter in word.unicodeScalars.reversed() {
            x += Canvas(surface: letters).drawText(String(letter), font: font, color: .white, baseline: Point(x: x, y: 30))
        }
        #expect(inkBounds(of: surface, background: 0).width > 0)
        #expect(coveredArea(of: surface) != coveredArea(of: letters))
        #expect(x - 10 != width)
    }

    @Test func anRTLParagraphKeepsLatinRunsLeftToRightOnTheLeft() throws {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let line = font.shapedLine("الحساب DE89 3704")
        let latin = Set("DE89 3704".unicodeScalars.map { font.glyph($0).glyphIndex })
        let d = try #require(line.glyphs.firstIndex { $0.mask.glyphIndex == font.glyph("D").glyphIndex })
        let three = try #require(line.glyphs.firstIndex { $0.mask.glyphIndex == font.glyph("3").glyphIndex })
        #expect(line.glyphs[d].x < line.glyphs[three].x)
        let latinRight = try #require(line.glyphs.filter { latin.contains($0.mask.glyphIndex) }.map(\.x).max())
        let arabicLeft = try #require(line.glyphs.filter { !latin.contains($0.mask.glyphIndex) }.map(\.x).min())
        #expect(latinRight < arabicLeft)

        // The same text in a left-to-right paragraph starts with the Arabic on the left.
        library.paragraphDirection = .leftToRight
        let ltr = font.shapedLine("الحساب DE89 3704")
        let d2 = try #require(ltr.glyphs.firstIndex { $0.mask.glyphIndex == font.glyph("D").glyphIndex })
        #expect(ltr.glyphs[..<d2].contains { !latin.contains($0.mask.glyphIndex) })
        #expect(ltr.glyphs[d2].x > ltr.glyphs[0].x)
    }

    @Test(arguments: [TextDirection.leftToRight, .rightToLeft],
          ["رقم الحساب: DE89 3704 0044 0532 0130 00", "سلام", "إيداع نقدي ١٢٣٫٤٥", "(مرحبا) [Anna]"])
    func measuredWidthIsTheDrawnExtent(direction: TextDirection, text: String) {
        let library = freshFonts
        library.paragraphDirection = direction
        let font = library.font(.regular, pixelSize: 22)
        let surface = Surface(width: 600, height: 60)
        let baseline = Point(x: 20, y: 40)
        let drawn = Canvas(surface: surface).drawText(text, font: font, color: .white, baseline: baseline)
        let measured = font.bounds(of: text, baseline: baseline)
        #expect(drawn == measured.width)
        #expect(drawn == font.width(of: Substring(text)))
        let ink = inkBounds(of: surface, background: 0)
        #expect(ink.minX >= measured.minX - 1)
        #expect(ink.maxX <= measured.maxX + 1)
        #expect(ink.minY >= measured.minY)
        #expect(ink.maxY <= measured.maxY)
        #expect(ink.width >= measured.width - 4)
    }

    @Test func truncatedArabicFitsAndTheEllipsisIsOnTheLeft() throws {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let text = "تحويل إلى حساب التوفير المنتهي برقم ٤٤٧١ لدى الفرع الرئيسي"
        let cut = font.truncated(text, toWidth: 180)
        #expect(cut.hasSuffix(Font.ellipsis))
        #expect(font.width(of: cut) <= 180)
        #expect(cut.count > 3)
        let glyphs = font.shapedLine(cut).glyphs
        let leftmost = try #require(glyphs.min { $0.x < $1.x })
        #expect(leftmost.mask.glyphIndex == font.glyph("\u{2026}").glyphIndex)
        // Drawn, the ellipsis's ink is at the left edge of the box.
        let surface = Surface(width: 200, height: 40)
        Canvas(surface: surface).drawText(cut, font: font, color: .white, in: Rect(x: 10, y: 0, width: 180, height: 40))
        let ink = inkBounds(of: surface, background: 0)
        #expect(ink.maxX <= 191)
    }

    @Test func wrappedArabicKeepsEveryWordAndEveryLineFits() {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let text = "الإيداع في قائمة الانتظار وسيُرسل إلى البنك عندما يعود الجهاز إلى الاتصال"
        let lines = font.wrapped(text, toWidth: 200)
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { font.width(of: $0) <= 200 })
        #expect(lines.joined(separator: " ") == text)
        let limited = font.wrapped(text, toWidth: 200, maxLines: 2)
        #expect(limited.count == 2)
        #expect(limited[1].hasSuffix(Font.ellipsis))
        #expect(font.width(of: limited[1]) <= 200)
    }

    /// A command isolated left to right in an Arabic sentence, wrapped over
    /// three lines: each line is ordered on its own, so each line inside the
    /// isolate opens it again and draws left to right, as the first line's
    /// part of it does ("/usr/lib/…" keeps its slash in front, not behind).
    @Test func anIsolateWrappedOverLinesStaysLeftToRightOnEachLine() throws {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let command = "sudo /usr/lib/teller/provision --terminal-id … --host-url … --secret-file …"
        let text = "على هذه المحطة: \u{2066}\(command)\u{2069} ثم أعد التشغيل."
        let lines = font.wrapped(text, toWidth: 260)
        #expect(lines.count >= 3, "\(lines)")
        let inner = try #require(lines.dropFirst().first { $0.contains("/usr/lib") || $0.contains("--") }, "\(lines)")
        #expect(inner.hasPrefix("\u{2066}"), "a line inside the isolate opens it again: \(lines.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.prefix(2) })")
        let runs = VisualRun.visualRuns(of: inner.unicodeScalars.map(\.value), direction: .rightToLeft)
        #expect(runs.allSatisfy { !$0.rightToLeft } || inner.contains("ثم"), "\(runs)")
        #expect(lines.map { $0.filter { !"\u{2066}\u{2069}".contains($0) } }.joined(separator: " ") == text.filter { !"\u{2066}\u{2069}".contains($0) })
        #expect(lines.allSatisfy { font.width(of: $0) <= 260 })
    }

    @Test(arguments: [TextDirection.leftToRight, .rightToLeft])
    func isolateMarksAroundLatinDrawNothing(direction: TextDirection) {
        let library = freshFonts
        library.paragraphDirection = direction
        let font = library.font(.regular, pixelSize: 22)
        for (plain, marked) in [("DE89 3704 0044", "\u{2066}DE89 3704 0044\u{2069}"),
                                ("AV Total: EUR 12.00", "A\u{2068}V\u{2069} Total: \u{2066}EUR 12.00\u{2069}\u{200E}")] {
            let a = Surface(width: 400, height: 40), b = Surface(width: 400, height: 40)
            let drawnA = Canvas(surface: a).drawText(plain, font: font, color: .white, baseline: Point(x: 10, y: 30))
            let drawnB = Canvas(surface: b).drawText(marked, font: font, color: .white, baseline: Point(x: 10, y: 30))
            #expect(drawnA == drawnB)
            #expect(font.width(of: marked) == font.width(of: plain))
            #expect(allPixels(of: a) == allPixels(of: b), "\(marked)")
        }
        // Inside shaped text the marks are zero-width too.
        #expect(font.width(of: "سلام \u{2066}DE89\u{2069}") == font.width(of: "سلام DE89"))
    }

    @Test func latinLooksTheSameInEitherDirection() {
        let library = freshFonts
        let font = library.font(.regular, pixelSize: 22)
        let text = "Balance: 1,234.56 EUR (today)!"
        let ltr = Surface(width: 400, height: 40), rtl = Surface(width: 400, height: 40)
        Canvas(surface: ltr).drawText(text, font: font, color: .white, baseline: Point(x: 10, y: 30))
        library.paragraphDirection = .rightToLeft
        Canvas(surface: rtl).drawText(text, font: font, color: .white, baseline: Point(x: 10, y: 30))
        #expect(allPixels(of: ltr) == allPixels(of: rtl))
        #expect(font.shapedLines.lines.isEmpty)
    }

    @Test func aChangedDirectionReachesFontsAlreadyHandedOut() throws {
        let library = freshFonts
        let font = library.font(.bold, pixelSize: 20)
        let text = "المبلغ EUR 250"
        let ltr = glyphIndices(text, in: font)
        _ = font.truncated(text, toWidth: 90)
        library.paragraphDirection = .rightToLeft
        #expect(font.paragraphDirection == .rightToLeft)
        #expect(font.breaks.lines.isEmpty)
        let rtl = glyphIndices(text, in: font)
        #expect(ltr != rtl)
        #expect(Set(ltr) == Set(rtl))
        #expect(library.font(.regular, pixelSize: 31).paragraphDirection == .rightToLeft)
    }

    @Test func redrawingAShapedLabelShapesNothing() {
        let font = freshFonts.font(.regular, pixelSize: 24)
        let canvas = Canvas(surface: Surface(width: 300, height: 50))
        canvas.drawText("إيداع نقدي", font: font, color: .white, baseline: Point(x: 0, y: 40))
        #expect(font.shapedLines.shaped == 1)
        let shaped = font.shapedLines.lines.count
        let misses = font.statistics.misses
        let size = font.cacheSize
        canvas.drawText("إيداع نقدي", font: font, color: .white, baseline: Point(x: 0, y: 40))
        _ = font.width(of: "إيداع نقدي")
        #expect(font.shapedLines.lines.count == shaped)
        #expect(font.shapedLines.shaped == 1)
        #expect(font.statistics.misses == misses)
        #expect(font.cacheSize == size)
        #expect(size.glyphs > 0)
    }

    /// The glyphs of `text` as shaped, left to right on screen, each with its
    /// x range in 26.6: where the pen stood and where the next glyph starts.
    func screenOrder(_ text: String, in font: Font) -> [(index: UInt32, minX: Int, maxX: Int)] {
        font.shapedLine(text).glyphs.map { ($0.mask.glyphIndex, $0.x, $0.x + $0.mask.advance) }
    }

    /// Where `needle`'s glyphs (one per scalar: Latin and digits) stand together in `line`, left to right.
    func range(of needle: String, in line: [(index: UInt32, minX: Int, maxX: Int)], font: Font) throws -> Range<Int> {
        let wanted = needle.unicodeScalars.map { font.glyph($0).glyphIndex }
        let start = try #require((0...(line.count - wanted.count)).first { start in
            line[start..<(start + wanted.count)].map(\.index) == wanted
        }, "\(needle) is not drawn left to right in one piece")
        return start..<(start + wanted.count)
    }

    /// An IBAN and a time isolated left to right (U+2066 … U+2069) in an
    /// Arabic paragraph: the isolates reach FriBidi, so each reads left to
    /// right in one piece, the IBAN (first in logical order) on the right.
    @Test func isolatedDataReadsLeftToRightInOnePieceInAnRTLParagraph() throws {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let space = font.glyph(" ").advance
        let time = "\u{2066}٠٨:٠٢\u{2069}"
        for text in ["\u{2066}DE54 5001 0517 0426 3971 58\u{2069} · " + time,
                     "\u{2066}DE54 5001 0517 0426 3971 58\u{2069} ← \u{2066}ES91 2100 0418 4502 0005 1332\u{2069} · " + time] {
            let line = screenOrder(text, in: font)
            let group = try range(of: "3971", in: line, font: font)
            let last = try range(of: "58", in: line, font: font)
            // "58" follows "3971" after one space, not detached elsewhere on the line.
            #expect(last.lowerBound > group.upperBound, "\(text)")
            let gap = line[last.lowerBound].minX - line[group.upperBound - 1].maxX
            #expect(gap >= 0 && gap <= space, "gap \(gap) between 3971 and 58 in \(text)")
            let iban = try range(of: "DE54", in: line, font: font)
            #expect(iban.upperBound <= group.lowerBound)
            // The whole IBAN is right of the time and of the "·" between them.
            let digits = Set("٠٨٢:".unicodeScalars.map { font.glyph($0).glyphIndex })
            let timeRight = try #require(line.filter { digits.contains($0.index) }.map(\.maxX).max())
            let dot = try #require(line.firstIndex { $0.index == font.glyph("·").glyphIndex })
            #expect(timeRight <= line[dot].minX)
            #expect(line[dot].maxX <= line[iban.lowerBound].minX)
            // The time reads left to right too: ٠٨ then ٠٢.
            let order = line.filter { digits.contains($0.index) }.map(\.index)
            #expect(order == "٠٨:٠٢".unicodeScalars.map { font.glyph($0).glyphIndex })
            // The marks are zero-width: the line is as wide as with the marks left out.
            let unmarked = String(String.UnicodeScalarView(text.unicodeScalars.filter { !TextRoute.isBidiControl($0.value) }))
            #expect(font.width(of: text) == font.width(of: unmarked))
        }
    }

    /// An amount isolated left to right reads digits then euro, as UAX #9
    /// orders it; without the isolate an Arabic paragraph puts the euro first
    /// on the left, as it does today.
    @Test func anIsolatedAmountKeepsTheEuroRightOfItsDigits() throws {
        let library = freshFonts
        library.paragraphDirection = .rightToLeft
        let font = library.font(.regular, pixelSize: 22)
        let euro = font.glyph("€").glyphIndex
        let digits = Set("٢٥٠٫".unicodeScalars.map { font.glyph($0).glyphIndex })

        let isolated = screenOrder("\u{2066}٢٥٠٫٠٠ €\u{2069}", in: font)
        let euroX = try #require(isolated.first { $0.index == euro })
        let digitsRight = try #require(isolated.filter { digits.contains($0.index) }.map(\.maxX).max())
        #expect(digitsRight <= euroX.minX)
        #expect(isolated.filter { digits.contains($0.index) }.map(\.index)
                == "٢٥٠٫٠٠".unicodeScalars.map { font.glyph($0).glyphIndex })

        // Without isolates today's order stays: the euro first, on the left.
        let bare = screenOrder("٢٥٠٫٠٠ €", in: font)
        let bareEuro = try #require(bare.first { $0.index == euro })
        let digitsLeft = try #require(bare.filter { digits.contains($0.index) }.map(\.minX).min())
        #expect(bareEuro.maxX <= digitsLeft)
        #expect(bare.filter { digits.contains($0.index) }.map(\.index)
                == "٢٥٠٫٠٠".unicodeScalars.map { font.glyph($0).glyphIndex })
        // The marks are zero-width: both lines are as wide.
        #expect(font.width(of: "\u{2066}٢٥٠٫٠٠ €\u{2069}") == font.width(of: "٢٥٠٫٠٠ €"))
    }
}
