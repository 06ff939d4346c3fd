import Graphics
import Testing

@Suite struct OutputTests {
    @Test func pngRoundTripsEveryPixel() throws {
        let surface = Surface(width: 37, height: 21)
        let canvas = Canvas(surface: surface)
        canvas.fill(surface.bounds, Color(argb: 0xFF12_3456))
        canvas.fillCircle(center: Point(x: 18, y: 10), radius: 8, Color(argb: 0xFFFE_DCBA))
        let bytes = try PNG.encode(surface)
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let image = try PNG.decode(bytes)
        #expect(image.size == surface.size)
        for y in 0..<surface.height {
            for x in 0..<surface.width { #expect(image[x, y].argb == surface[x, y] | 0xFF00_0000) }
        }
    }

    @Test func decodingGarbageThrows() {
        #expect(throws: PNGError.self) { try PNG.decode([1, 2, 3, 4]) }
    }

    @Test func convertsToPanelFormats() {
        let surface = Surface(width: 2, height: 1)
        surface[0, 0] = 0x00FF_8000
        surface[1, 0] = 0x0000_00FF
        var rgb565 = [UInt16](repeating: 0, count: 2)
        rgb565.withUnsafeMutableBytes { surface.convert(surface.bounds, to: .rgb565, into: $0.baseAddress!, strideBytes: 4) }
        #expect(rgb565 == [0xFC00, 0x001F])
        var packed = [UInt8](repeating: 0, count: 6)
        packed.withUnsafeMutableBytes { surface.convert(surface.bounds, to: .bgr888, into: $0.baseAddress!, strideBytes: 6) }
        #expect(packed == [0xFF, 0x80, 0x00, 0x00, 0x00, 0xFF])
        var xbgr = [UInt32](repeating: 0, count: 2)
        xbgr.withUnsafeMutableBytes { surface.convert(surface.bounds, to: .xbgr8888, into: $0.baseAddress!, strideBytes: 8) }
        #expect(xbgr == [0x0000_80FF, 0x00FF_0000])
    }
}
