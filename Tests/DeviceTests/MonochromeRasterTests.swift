import Graphics
import Testing
@testable import Device

@Suite("1-bit rasters from surfaces")
struct MonochromeRasterTests {
    /// Black where the luminance is below the threshold: mid-grey is the
    /// edge, and colours count by how bright the eye finds them (green
    /// brighter than red brighter than blue).
    static let pixels: [(pixel: UInt32, black: Bool)] = [
        (0xFF00_0000, true), (0xFFFF_FFFF, false),
        (0xFF7F_7F7F, true), (0xFF80_8080, false),  // 127 prints, 128 does not
        (0xFF00_FF00, false),  // green: luma 149
        (0xFFFF_0000, true),   // red: luma 77
        (0xFF00_00FF, true),   // blue: luma 29
        (0xFF14_202E, true),   // the screens' primary text
        (0xFFEE_F1F5, false),  // the screens' background
    ]

    @Test func thresholdsOnLuminance() {
        let surface = Surface(width: Self.pixels.count, height: 1)
        for (x, entry) in Self.pixels.enumerated() { surface[x, 0] = entry.pixel }
        let raster = MonochromeRaster(surface)
        #expect(raster.width == Self.pixels.count && raster.height == 1 && raster.bytesPerRow == 2)
        for (x, entry) in Self.pixels.enumerated() {
            #expect(raster[x, 0] == entry.black, "pixel \(x) 0x\(String(entry.pixel, radix: 16))")
        }
        // A higher threshold prints the light grey too.
        #expect(MonochromeRaster(surface, threshold: 129)[3, 0])
    }

    @Test func packsTheLeftmostDotIntoTheHighBitAndLeavesThePaddingWhite() {
        let surface = Surface(width: 10, height: 2)
        for y in 0..<2 { for x in 0..<10 { surface[x, y] = 0xFFFF_FFFF } }
        surface[0, 0] = 0xFF00_0000
        surface[9, 0] = 0xFF00_0000
        surface[7, 1] = 0xFF00_0000
        surface[8, 1] = 0xFF00_0000
        let raster = MonochromeRaster(surface)
        #expect(raster.bytes == [0b1000_0000, 0b0100_0000, 0b0000_0001, 0b1000_0000])
        // Bytes given with padding bits set compare equal once packed.
        #expect(MonochromeRaster(width: 10, height: 2, bytes: [0x80, 0x7F, 0x01, 0xBF]) == raster)
    }

    @Test func paperWidthsAre203DpiHeads() {
        #expect(PaperWidth.standard(millimetres: 58)?.dots == 384)
        #expect(PaperWidth.standard(millimetres: 80)?.dots == 576)
        #expect(PaperWidth.standard(millimetres: 76) == nil)
    }
}
