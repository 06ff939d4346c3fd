/// A colour with straight (non-premultiplied) alpha, stored as 0xAARRGGBB.
public struct Color: Hashable, Sendable {
    public var argb: UInt32

    public init(argb: UInt32) { self.argb = argb }

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        argb = UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// Parses `#RRGGBB` or `#AARRGGBB` (the `#` is optional).
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        argb = digits.count == 6 ? 0xFF00_0000 | value : value
    }

    public var alpha: UInt8 { UInt8(truncatingIfNeeded: argb >> 24) }
    public var red: UInt8 { UInt8(truncatingIfNeeded: argb >> 16) }
    public var green: UInt8 { UInt8(truncatingIfNeeded: argb >> 8) }
    public var blue: UInt8 { UInt8(truncatingIfNeeded: argb) }

    /// The pixel value in an XRGB8888 surface (alpha byte ignored by displays).
    public var xrgb: UInt32 { argb | 0xFF00_0000 }

    public func withAlpha(_ alpha: UInt8) -> Color {
        Color(argb: (argb & 0x00FF_FFFF) | UInt32(alpha) << 24)
    }

    public static let black = Color(argb: 0xFF00_0000)
    public static let white = Color(argb: 0xFFFF_FFFF)
    public static let clear = Color(argb: 0x0000_0000)
}
