import Graphics

/// A 1-bit image as a thermal head prints it, in the layout of ESC/POS's
/// GS v 0: rows of whole bytes, the most significant bit the leftmost dot,
/// a set bit a black dot. Bits past ``width`` in a row's last byte are
/// white.
public struct MonochromeRaster: Hashable, Sendable {
    /// Dots across.
    public let width: Int
    /// Rows of dots.
    public let height: Int
    /// ``height`` rows of ``bytesPerRow`` bytes.
    public private(set) var bytes: [UInt8]

    public var bytesPerRow: Int { (width + 7) / 8 }

    /// A white raster.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "a raster's size must not be negative")
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: (width + 7) / 8 * height)
    }

    /// A raster over rows already packed as GS v 0 packs them.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0, "a raster's size must not be negative")
        precondition(bytes.count == (width + 7) / 8 * height, "\(bytes.count) bytes do not make \(height) rows of \(width) dots")
        self.width = width
        self.height = height
        self.bytes = bytes
        clearPadding()
    }

    /// True for a black dot.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "dot (\(x), \(y)) outside \(width)x\(height)")
            return bytes[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "dot (\(x), \(y)) outside \(width)x\(height)")
            let index = y * bytesPerRow + x / 8
            let bit: UInt8 = 0x80 >> UInt8(x % 8)
            if newValue { bytes[index] |= bit } else { bytes[index] &= ~bit }
        }
    }

    /// The packed bytes of rows `rows`.
    public func bytes(ofRows rows: Range<Int>) -> ArraySlice<UInt8> {
        bytes[rows.lowerBound * bytesPerRow..<rows.upperBound * bytesPerRow]
    }

    /// A white dot where a row's last byte runs past ``width``, so two
    /// rasters of the same dots compare equal whatever their padding held.
    private mutating func clearPadding() {
        let spare = bytesPerRow * 8 - width
        guard spare > 0, height > 0 else { return }
        let keep: UInt8 = 0xFF << UInt8(spare)
        for y in 0..<height { bytes[y * bytesPerRow + bytesPerRow - 1] &= keep }
    }
}

extension MonochromeRaster {
    /// The default ``init(_:threshold:)`` luminance: darker than mid-grey prints.
    public static let defaultThreshold = 128

    /// `surface` on paper: a dot is black where the pixel's luminance
    /// (Rec. 601: 0.299 R + 0.587 G + 0.114 B, 0 to 255) is below
    /// `threshold`. Text drawn black on white keeps its anti-aliased edge
    /// pixels that are more than half covered.
    public init(_ surface: Surface, threshold: Int = MonochromeRaster.defaultThreshold) {
        self.init(width: surface.width, height: surface.height)
        let perRow = bytesPerRow
        bytes.withUnsafeMutableBufferPointer { packed in
            for y in 0..<surface.height {
                let row = surface.row(y)
                for x in 0..<surface.width where Self.luminance(row[x]) < threshold {
                    packed[y * perRow + x / 8] |= 0x80 >> UInt8(x % 8)
                }
            }
        }
    }

    /// Rec. 601 luma of an XRGB pixel in integer weights that sum to 256.
    @inline(__always)
    static func luminance(_ pixel: UInt32) -> Int {
        let red = Int(pixel >> 16 & 0xFF), green = Int(pixel >> 8 & 0xFF), blue = Int(pixel & 0xFF)
        return (77 * red + 150 * green + 29 * blue + 128) >> 8
    }
}
