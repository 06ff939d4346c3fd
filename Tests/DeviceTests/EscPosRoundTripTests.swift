import Graphics
import PrinterTestSupport
import Testing
@testable import Device

/// Device's ESC/POS encoder against the decoder in Tests/PrinterSupport,
/// which is written from the Epson reference and not from the encoder:
/// what one writes the other must read back dot for dot.
@Suite("ESC/POS encoding, decoded again")
struct EscPosRoundTripTests {
    /// A raster with every kind of row: random dots, a width that is not a
    /// whole number of bytes, and more rows than one band holds.
    static func pattern(width: Int, height: Int, seed: UInt64) -> MonochromeRaster {
        var raster = MonochromeRaster(width: width, height: height)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                raster[x, y] = state >> 61 < 3
            }
        }
        return raster
    }

    /// The decoded slip's dots, cut to the raster's width and height.
    static func dots(of slip: EscPosDecoder.Slip, width: Int, rows: Range<Int>) -> [Bool] {
        rows.flatMap { y in (0..<width).map { x in slip[x, y] } }
    }

    static func dots(of raster: MonochromeRaster) -> [Bool] {
        (0..<raster.height).flatMap { y in (0..<raster.width).map { x in raster[x, y] } }
    }

    static let sizes: [(paper: PaperWidth, width: Int, height: Int)] = [
        (.millimetres80, 576, 700), (.millimetres58, 384, 300), (.millimetres80, 571, 257), (.millimetres58, 9, 1),
    ]

    @Test(arguments: sizes.indices)
    func aRasterComesBackDotForDot(_ index: Int) throws {
        let size = Self.sizes[index]
        let raster = Self.pattern(width: size.width, height: size.height, seed: UInt64(index + 1))
        let bytes = EscPosEncoder.slip(raster, paper: size.paper)
        let output = try EscPosDecoder(paperDots: size.paper.dots).decode(bytes)
        #expect(output.slips.count == 1)
        let slip = try #require(output.slips.first)
        #expect(slip.cut == .partial)
        #expect(slip.initializations == 1)
        #expect(slip.width == size.paper.dots)
        #expect(slip.height == size.height)
        #expect(Self.dots(of: slip, width: size.width, rows: 0..<size.height) == Self.dots(of: raster))
        // Past the raster's width the paper stays white.
        for y in 0..<slip.height {
            for x in size.width..<slip.width where slip[x, y] { Issue.record("dot (\(x), \(y)) outside the raster is black") }
        }
    }

    /// The comparison above sees one wrong dot: the same raster with one dot
    /// flipped in the encoded bytes does not compare equal.
    @Test func oneFlippedDotFailsTheComparison() throws {
        let raster = Self.pattern(width: 576, height: 40, seed: 7)
        var bytes = EscPosEncoder.slip(raster, paper: .millimetres80)
        // ESC @ (2 bytes), then GS v 0 (8 bytes), then row 0's bytes: flip a dot of row 3.
        bytes[2 + 8 + 3 * 72 + 10] ^= 0x08
        let slip = try #require(try EscPosDecoder(paperDots: 576).decode(bytes).slips.first)
        #expect(Self.dots(of: slip, width: 576, rows: 0..<40) != Self.dots(of: raster))
        #expect(slip[10 * 8 + 4, 3] != raster[10 * 8 + 4, 3])
    }

    /// A long receipt goes as several GS v 0 bands of at most bandHeight rows.
    @Test func aLongRasterIsSentInBands() throws {
        let raster = Self.pattern(width: 576, height: 700, seed: 3)
        var job = EscPosEncoder(paper: .millimetres80)
        job.raster(raster)
        var bands: [Int] = []
        var index = 0
        while index < job.bytes.count {
            try #require(Array(job.bytes[index..<index + 4]) == [0x1D, 0x76, 0x30, 0])
            let perRow = Int(job.bytes[index + 4]) + Int(job.bytes[index + 5]) * 256
            let rows = Int(job.bytes[index + 6]) + Int(job.bytes[index + 7]) * 256
            #expect(perRow == 72)
            bands.append(rows)
            index += 8 + perRow * rows
        }
        #expect(bands == [256, 256, 188])
        #expect(index == job.bytes.count)
    }

    @Test func feedsCutsAndStatusRequestsDecodeAsTheyWereMeant() throws {
        var job = EscPosEncoder(paper: .millimetres58)
        job.initialize()
        job.raster(MonochromeRaster(width: 384, height: 2, bytes: [UInt8](repeating: 0xFF, count: 96)))
        job.feed(dots: 300)  // two ESC J: 255 and 45
        job.cut()
        job.raster(MonochromeRaster(width: 8, height: 1, bytes: [0x81]))
        let bytes = job.bytes + EscPosEncoder.statusRequest(.rollPaperSensor) + [0x0A] + EscPosEncoder.statusRequest(.printer)
        #expect(Array(bytes[(2 + 8 + 96)...].prefix(6)) == [0x1B, 0x4A, 255, 0x1B, 0x4A, 45])
        let output = try EscPosDecoder(paperDots: 384).decode(bytes)
        #expect(output.statusRequests == [4, 1])
        try #require(output.slips.count == 2)
        #expect(output.slips[0].height == 2 + 300)
        #expect(output.slips[0].cut == .partial)
        #expect(output.slips[0][0, 1] && !output.slips[0][0, 2])
        // The second slip: its one row, then LF's default line spacing, and no cut.
        #expect(output.slips[1].height == 1 + EscPosDecoder.defaultLineSpacing)
        #expect(output.slips[1].cut == nil)
        #expect(output.slips[1][0, 0] && !output.slips[1][1, 0] && output.slips[1][7, 0])
    }

    @Test func statusRequestsAreDLEEOTn() {
        #expect(StatusRequest.allCases.map(EscPosEncoder.statusRequest) == [[0x10, 0x04, 1], [0x10, 0x04, 2], [0x10, 0x04, 3], [0x10, 0x04, 4]])
    }

    /// The decoder refuses what it does not know, naming the offset.
    static let refused: [(bytes: [UInt8], offset: Int, says: String)] = [
        ([0x1B, 0x40, 0x41], 2, "0x41 is not a command"),                 // text
        ([0x1B, 0x40, 0x1B, 0x45, 1], 2, "ESC 0x45"),                      // ESC E, emphasis: a text command
        ([0x1D, 0x76, 0x30, 0, 2, 0, 2, 0, 0xFF, 0xFF, 0xFF], 0, "announces 4 bytes"),  // image cut short
        ([0x1D, 0x76, 0x30, 1, 1, 0, 1, 0, 0xFF], 0, "mode 1"),            // double width
        ([0x1D, 0x76, 0x30, 0, 73, 0, 1, 0] + [UInt8](repeating: 0, count: 73), 0, "wider than the paper"),
        ([0x1D, 0x56, 2], 0, "GS V 2"),
        ([0x10, 0x04, 7], 0, "not DLE EOT 1 to 4"),
        ([0x1B], 0, "ESC needs 2 bytes"),
    ]

    @Test(arguments: refused.indices)
    func theDecoderFailsLoudlyOnWhatItDoesNotKnow(_ index: Int) throws {
        let case_ = Self.refused[index]
        let attempt = Result<EscPosDecoder.Output, EscPosDecodingError> { () throws(EscPosDecodingError) in try EscPosDecoder(paperDots: 576).decode(case_.bytes) }
        let failure = try #require(attempt.failure)
        #expect(failure.offset == case_.offset)
        #expect(failure.description.contains(case_.says), "\(failure)")
    }
}
