import Graphics
import Testing

@Suite struct DrawingTests {
    let red = Color(argb: 0xFFFF_0000)

    @Test func filledRectCoversExactlyItsPixels() {
        let surface = Surface(width: 20, height: 16)
        Canvas(surface: surface).fill(Rect(x: 3, y: 4, width: 5, height: 6), red)
        let found = pixels(of: surface, equalTo: red.xrgb)
        #expect(found.count == 30)
        #expect(found.bounds == Rect(x: 3, y: 4, width: 5, height: 6))
    }

    @Test func nestedClipsOnlyNarrow() {
        let surface = Surface(width: 20, height: 20)
        let canvas = Canvas(surface: surface)
        canvas.pushClip(Rect(x: 2, y: 2, width: 10, height: 10))
        canvas.pushClip(Rect(x: 6, y: 0, width: 20, height: 20))
        #expect(canvas.clip == Rect(x: 6, y: 2, width: 6, height: 10))
        canvas.fill(surface.bounds, red)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 20, height: 20), radius: 5, .white)
        canvas.drawLine(from: Point(x: 0, y: 0), to: Point(x: 19, y: 13), width: 3, .white)
        canvas.popClip()
        canvas.popClip()
        #expect(inkBounds(of: surface, background: 0) == Rect(x: 6, y: 2, width: 6, height: 10))
        #expect(canvas.clip == surface.bounds)
    }

    @Test func textIsClipped() {
        let surface = Surface(width: 200, height: 40)
        let canvas = Canvas(surface: surface)
        canvas.withClip(Rect(x: 0, y: 0, width: 30, height: 40)) {
            canvas.drawText("WWWWWWWW", font: freshFonts.font(.regular, pixelSize: 20), color: .white,
                            baseline: Point(x: 2, y: 30))
        }
        let ink = inkBounds(of: surface, background: 0)
        #expect(!ink.isEmpty)
        #expect(ink.maxX <= 30)
    }

    @Test func discCoverageMatchesItsArea() {
        let surface = Surface(width: 64, height: 64)
        Canvas(surface: surface).fillCircle(center: Point(x: 32, y: 32), radius: 20, .white)
        let area = coveredArea(of: surface)
        #expect(abs(area - Double.pi * 400) / (Double.pi * 400) < 0.01)
        // The edge is anti-aliased: there are partially covered pixels, none outside the radius.
        #expect(surface[17, 18] != 0 && surface[17, 18] != Color.white.xrgb)
        #expect(surface[32, 11] == 0 && surface[5, 5] == 0)
    }

    @Test func roundedBorderCoverageMatchesItsArea() {
        let surface = Surface(width: 80, height: 60)
        Canvas(surface: surface).strokeRoundedRect(Rect(x: 10, y: 10, width: 60, height: 40), radius: 10, width: 2, .white)
        // Straight parts plus two rings of radius 10 minus radius 8, one per corner quarter.
        let straight: Double = 2 * (40 * 2) + 2 * (20 * 2)
        let rings: Double = .pi * (100 - 64)
        let expected = straight + rings
        #expect(abs(coveredArea(of: surface) - expected) / expected < 0.02)
        #expect(surface[40, 10] == Color.white.xrgb && surface[40, 12] == 0)
    }

    @Test func diagonalLineCoverageMatchesItsArea() {
        let surface = Surface(width: 60, height: 60)
        Canvas(surface: surface).drawLine(from: Point(x: 10, y: 10), to: Point(x: 50, y: 50), width: 2, .white)
        let length = (2.0 * 40 * 40).squareRoot()
        // Round caps add a disc of the line width.
        let expected = length * 2 + Double.pi
        #expect(abs(coveredArea(of: surface) - expected) / expected < 0.05)
    }

    @Test func halfAlphaBlendsToTheMiddle() {
        let surface = Surface(width: 4, height: 4)
        Canvas(surface: surface).fill(surface.bounds, Color.white.withAlpha(128))
        let green = Int(surface[1, 1] >> 8 & 0xFF)
        #expect(abs(green - 128) <= 1)
    }

    @Test func imageBlitHonoursAlpha() {
        var image = Image(size: Size(width: 2, height: 1))
        image[0, 0] = Color(argb: 0xFF00_FF00)
        image[1, 0] = Color(argb: 0x8000_FF00)
        let surface = Surface(width: 4, height: 4)
        Canvas(surface: surface).draw(image, at: Point(x: 1, y: 2))
        #expect(surface[1, 2] == 0xFF00_FF00)
        #expect(abs(Int(surface[2, 2] >> 8 & 0xFF) - 128) <= 1)
        #expect(surface[0, 2] == 0 && surface[3, 2] == 0)
    }

    @Test func viewsShareTheParentsPixelsAndStride() {
        let parent = Surface(width: 10, height: 10)
        let child = parent.view(Rect(x: 4, y: 3, width: 4, height: 4))
        #expect(child.stridePixels == 10)
        Canvas(surface: child).fill(Rect(x: 1, y: 1, width: 2, height: 2), red)
        #expect(pixels(of: parent, equalTo: red.xrgb).bounds == Rect(x: 5, y: 4, width: 2, height: 2))
    }
}
