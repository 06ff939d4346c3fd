/// Writes the ESC/POS commands Teller prints with, as the Epson ESC/POS
/// reference defines them: everything on paper is a raster image made by
/// our own text engine (GS v 0), so Arabic, German and any other script
/// print the same on every printer, whatever its code pages.
///
///     var job = EscPosEncoder(paper: .millimetres80)
///     job.initialize()
///     job.raster(MonochromeRaster(surface))
///     job.cut()
///     try connection.write(job.bytes)
///
/// No banking here: what a receipt says is TellerFeatures', how it looks TellerUI's.
public struct EscPosEncoder: Sendable {
    /// The roll; a raster wider than its dots is a bug in the caller.
    public let paper: PaperWidth
    /// The most rows one GS v 0 carries. A printer buffers a whole image
    /// command before it prints it, so a long receipt goes as several
    /// bands: at 576 dots, 256 rows are 18 KB, which every counter printer
    /// we know takes (the command itself allows 4095 rows).
    public let bandHeight: Int
    /// The commands so far.
    public private(set) var bytes: [UInt8] = []

    public static let defaultBandHeight = 256

    public init(paper: PaperWidth, bandHeight: Int = EscPosEncoder.defaultBandHeight) {
        precondition((1...4095).contains(bandHeight), "GS v 0 carries 1 to 4095 rows")
        self.paper = paper
        self.bandHeight = bandHeight
    }

    /// ESC @: forgets earlier settings and anything a half-sent job left
    /// in the printer's buffer, so every job starts from the same state.
    public mutating func initialize() {
        bytes += [Byte.escape, 0x40]
    }

    /// GS v 0 at normal density, in bands of at most ``bandHeight`` rows.
    /// An empty raster prints nothing.
    public mutating func raster(_ raster: MonochromeRaster) {
        precondition(raster.width <= paper.dots, "a raster of \(raster.width) dots is wider than \(paper)")
        let perRow = raster.bytesPerRow
        guard perRow > 0 else { return }
        var top = 0
        while top < raster.height {
            let rows = min(bandHeight, raster.height - top)
            bytes += [Byte.groupSeparator, 0x76, 0x30, 0,
                      UInt8(perRow & 0xFF), UInt8(perRow >> 8), UInt8(rows & 0xFF), UInt8(rows >> 8)]
            bytes += raster.bytes(ofRows: top..<top + rows)
            top += rows
        }
    }

    /// ESC J: feeds `dots` rows of blank paper (one command feeds at most 255).
    public mutating func feed(dots: Int) {
        precondition(dots >= 0, "paper feeds forward")
        var left = dots
        while left > 0 {
            let step = min(left, 255)
            bytes += [Byte.escape, 0x4A, UInt8(step)]
            left -= step
        }
    }

    /// GS V 66 0: feeds the last printed row past the cutter, then cuts
    /// the paper partially, so the slip hangs on for the operator to tear
    /// off and the next one starts clean.
    public mutating func cut() {
        bytes += [Byte.groupSeparator, 0x56, 66, 0]
    }

    /// DLE EOT n: the printer answers one status byte at once, even when it
    /// is offline or its buffer is full (``PrinterStatus``).
    public static func statusRequest(_ request: StatusRequest) -> [UInt8] {
        [Byte.dataLinkEscape, 0x04, request.rawValue]
    }

    /// A whole slip: initialise, the raster, and the partial cut.
    public static func slip(_ raster: MonochromeRaster, paper: PaperWidth) -> [UInt8] {
        var job = EscPosEncoder(paper: paper)
        job.initialize()
        job.raster(raster)
        job.cut()
        return job.bytes
    }

    /// The control bytes ESC/POS commands start with.
    private enum Byte {
        static let dataLinkEscape: UInt8 = 0x10
        static let escape: UInt8 = 0x1B
        static let groupSeparator: UInt8 = 0x1D
    }
}
