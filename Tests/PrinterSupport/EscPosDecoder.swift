import Graphics

/// A virtual receipt printer's paper: turns the ESC/POS bytes Teller
/// prints back into images, one per cut, for round-trip tests and printed
/// goldens.
///
/// It knows exactly the commands Teller's encoder may send, as the Epson
/// ESC/POS reference defines them: ESC @, GS v 0 (normal density), LF,
/// ESC J and ESC d (feeds), GS V (cuts) and DLE EOT n (status requests,
/// recorded). Anything else, a text byte among them, is an error that names
/// its offset: Teller prints raster images only, so a byte the decoder does
/// not know is a bug to see, not to skip. Written from the reference, not
/// from Device's encoder, so the two check each other.
public struct EscPosDecoder {
    /// The head's width in dots: 384 on 58 mm paper, 576 on 80 mm.
    public let paperDots: Int
    /// What LF and ESC d feed per line: ESC/POS's default line spacing,
    /// 30 dots at 203 dpi (3.75 mm), which ESC @ restores.
    public static let defaultLineSpacing = 30

    public init(paperDots: Int) {
        self.paperDots = paperDots
    }

    /// What the printer did with a stream of bytes.
    public struct Output {
        /// The paper, cut into slips; the last one is uncut when the bytes end without a cut.
        public var slips: [Slip] = []
        /// The n of each DLE EOT n, in order.
        public var statusRequests: [UInt8] = []
    }

    /// A piece of paper as it came out of the printer.
    public struct Slip: Equatable {
        public let width: Int
        /// One entry per dot, row by row: true where the head printed.
        public private(set) var dots: [Bool] = []
        /// How it was cut off the roll; nil when it was not.
        public var cut: Cut?
        /// How many ESC @ came before the slip's first row (the job's own initialisation).
        public var initializations = 0

        public var height: Int { width == 0 ? 0 : dots.count / width }

        public subscript(x: Int, y: Int) -> Bool { dots[y * width + x] }

        mutating func feed(_ rows: Int) {
            dots += [Bool](repeating: false, count: rows * width)
        }

        mutating func append(row: ArraySlice<UInt8>) {
            for x in 0..<width {
                let byte = x / 8 < row.count ? row[row.startIndex + x / 8] : 0
                dots.append(byte & (0x80 >> UInt8(x % 8)) != 0)
            }
        }

        /// The slip as a picture: black dots on white.
        public func surface() -> Surface {
            let surface = Surface(width: width, height: height)
            for y in 0..<height {
                let row = surface.row(y)
                for x in 0..<width { row[x] = self[x, y] ? 0xFF00_0000 : 0xFFFF_FFFF }
            }
            return surface
        }

        /// Writes ``surface()`` as a PNG at `path`.
        public func writePNG(to path: String) throws {
            try PNG.write(surface(), to: path)
        }
    }

    public enum Cut: Equatable {
        case full, partial
    }

    /// Decodes a whole stream.
    /// - Throws: ``EscPosDecodingError`` at the first byte that is not a
    ///   command it knows, or a command cut short or out of range.
    public func decode(_ bytes: [UInt8]) throws(EscPosDecodingError) -> Output {
        var output = Output()
        var slip = Slip(width: paperDots)
        var lineSpacing = Self.defaultLineSpacing
        var index = 0

        func need(_ count: Int, _ command: String) throws(EscPosDecodingError) {
            guard index + count <= bytes.count else {
                throw EscPosDecodingError(offset: index, problem: "\(command) needs \(count) bytes, \(bytes.count - index) are left")
            }
        }
        func finish(_ cut: Cut?) {
            slip.cut = cut
            output.slips.append(slip)
            slip = Slip(width: paperDots)
        }

        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:  // LF: print and feed one line
                slip.feed(lineSpacing)
                index += 1
            case 0x1B:
                try need(2, "ESC")
                switch bytes[index + 1] {
                case 0x40:  // ESC @
                    lineSpacing = Self.defaultLineSpacing
                    if slip.dots.isEmpty { slip.initializations += 1 }
                    index += 2
                case 0x4A:  // ESC J n: feed n dots
                    try need(3, "ESC J")
                    slip.feed(Int(bytes[index + 2]))
                    index += 3
                case 0x64:  // ESC d n: feed n lines
                    try need(3, "ESC d")
                    slip.feed(Int(bytes[index + 2]) * lineSpacing)
                    index += 3
                default:
                    throw EscPosDecodingError(offset: index, problem: "ESC \(hex(bytes[index + 1])) is not a command this decoder knows")
                }
            case 0x1D:
                try need(2, "GS")
                switch bytes[index + 1] {
                case 0x76:
                    try rasterImage(bytes, at: &index, into: &slip)
                case 0x56:  // GS V: cut
                    try need(3, "GS V")
                    switch bytes[index + 2] {
                    case 0, 48: finish(.full); index += 3
                    case 1, 49: finish(.partial); index += 3
                    case 65, 66:
                        try need(4, "GS V \(bytes[index + 2])")
                        slip.feed(Int(bytes[index + 3]))
                        finish(bytes[index + 2] == 65 ? .full : .partial)
                        index += 4
                    default:
                        throw EscPosDecodingError(offset: index, problem: "GS V \(bytes[index + 2]) is not a cut this decoder knows")
                    }
                default:
                    throw EscPosDecodingError(offset: index, problem: "GS \(hex(bytes[index + 1])) is not a command this decoder knows")
                }
            case 0x10:
                try need(3, "DLE")
                guard bytes[index + 1] == 0x04, (1...4).contains(bytes[index + 2]) else {
                    throw EscPosDecodingError(offset: index, problem: "DLE \(hex(bytes[index + 1])) \(hex(bytes[index + 2])) is not DLE EOT 1 to 4")
                }
                output.statusRequests.append(bytes[index + 2])
                index += 3
            default:
                throw EscPosDecodingError(offset: index, problem: "\(hex(bytes[index])) is not a command this decoder knows (Teller prints raster images, never text)")
            }
        }
        if !slip.dots.isEmpty { finish(nil) }
        return output
    }

    /// GS v 0 m xL xH yL yH d1…dk: a raster image of (xL + xH·256) bytes
    /// by (yL + yH·256) rows, at normal density only (m = 0 or 48).
    private func rasterImage(_ bytes: [UInt8], at index: inout Int, into slip: inout Slip) throws(EscPosDecodingError) {
        guard index + 8 <= bytes.count else {
            throw EscPosDecodingError(offset: index, problem: "GS v 0 needs 8 bytes before its data, \(bytes.count - index) are left")
        }
        guard bytes[index + 2] == 0x30 else {
            throw EscPosDecodingError(offset: index, problem: "GS v \(hex(bytes[index + 2])) is not GS v 0")
        }
        guard bytes[index + 3] == 0 || bytes[index + 3] == 48 else {
            throw EscPosDecodingError(offset: index, problem: "GS v 0 mode \(bytes[index + 3]) scales the image; only normal (0) is known")
        }
        let perRow = Int(bytes[index + 4]) + Int(bytes[index + 5]) * 256
        let rows = Int(bytes[index + 6]) + Int(bytes[index + 7]) * 256
        guard (1...128).contains(perRow), (1...4095).contains(rows) else {
            throw EscPosDecodingError(offset: index, problem: "GS v 0 of \(perRow) bytes by \(rows) rows is out of range (1-128 by 1-4095)")
        }
        guard perRow * 8 <= (paperDots + 7) / 8 * 8 else {
            throw EscPosDecodingError(offset: index, problem: "GS v 0 of \(perRow * 8) dots is wider than the paper's \(paperDots)")
        }
        let start = index + 8
        guard start + perRow * rows <= bytes.count else {
            throw EscPosDecodingError(offset: index, problem: "GS v 0 announces \(perRow * rows) bytes of image, \(bytes.count - start) follow")
        }
        for row in 0..<rows {
            slip.append(row: bytes[(start + row * perRow)..<(start + (row + 1) * perRow)])
        }
        index = start + perRow * rows
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
    }
}

/// Where and why the decoder stopped.
public struct EscPosDecodingError: Error, Equatable, CustomStringConvertible {
    /// The offset of the command's first byte.
    public let offset: Int
    public let problem: String

    public var description: String { "byte \(offset): \(problem)" }
}
