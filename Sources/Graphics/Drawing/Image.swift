/// An image with straight alpha, pixels as 0xAARRGGBB, rows packed.
///
/// Icons and logos decoded from PNG; blitted onto a surface with
/// ``Canvas/draw(_:at:)``.
public struct Image: Hashable, Sendable {
    public let size: Size
    public var pixels: [UInt32]

    /// An image of `size` filled with `color`.
    public init(size: Size, color: Color = .clear) {
        self.size = size
        pixels = Array(repeating: color.argb, count: size.width * size.height)
    }

    /// An image over `pixels`, which must hold exactly `size.width * size.height` values.
    public init(size: Size, pixels: [UInt32]) {
        precondition(pixels.count == size.width * size.height, "pixel count does not match image size")
        self.size = size
        self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> Color {
        get { Color(argb: pixels[y * size.width + x]) }
        set { pixels[y * size.width + x] = newValue.argb }
    }
}
