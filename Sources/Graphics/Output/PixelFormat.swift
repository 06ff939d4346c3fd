/// Pixel layouts that displays scan out, named by their DRM fourcc.
///
/// Surfaces are always drawn in XRGB8888; fbdev panels on small boards are
/// often RGB565 or 24-bit, so the display converts damaged rects on the way out.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// 32-bit 0xXXRRGGBB words; the native surface format (no conversion).
    case xrgb8888
    /// 32-bit 0xXXBBGGRR words.
    case xbgr8888
    /// 16-bit words, 5 bits red, 6 green, 5 blue.
    case rgb565
    /// 24-bit, bytes B, G, R in memory (DRM_FORMAT_RGB888, fbdev 24 bpp).
    case rgb888
    /// 24-bit, bytes R, G, B in memory (DRM_FORMAT_BGR888).
    case bgr888

    /// Bytes one pixel takes in this format.
    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888, .xbgr8888: return 4
        case .rgb565: return 2
        case .rgb888, .bgr888: return 3
        }
    }
}
