/// A rectangle of XRGB8888 pixels that knows its row stride.
///
/// A surface either owns its memory (``init(size:)``) or wraps memory that
/// belongs to someone else, such as a mapped DRM dumb buffer or fbdev
/// framebuffer (``init(wrapping:size:stridePixels:owner:)``). ``view(_:)``
/// returns a sub-surface that shares the parent's pixels.
///
/// Not thread-safe: a surface is drawn on by one thread at a time.
public final class Surface {
    /// The first pixel of the surface's top-left corner.
    public let baseAddress: UnsafeMutablePointer<UInt32>
    public let size: Size
    /// Distance between the starts of two rows, in pixels (not bytes).
    public let stridePixels: Int
    /// Keeps the memory alive: the allocation, a parent surface, or a mapping.
    private let owner: AnyObject?
    private let ownsMemory: Bool

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bounds: Rect { Rect(origin: .zero, size: size) }
    /// Row stride in bytes, as DRM and fbdev report it.
    public var strideBytes: Int { stridePixels * 4 }

    /// Allocates a zero-filled (black) surface.
    public init(size: Size) {
        precondition(size.width >= 0 && size.height >= 0, "surface size must not be negative")
        let count = max(1, size.width * size.height)
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        memory.initialize(repeating: 0, count: count)
        baseAddress = memory
        self.size = size
        stridePixels = size.width
        owner = nil
        ownsMemory = true
    }

    public convenience init(width: Int, height: Int) {
        self.init(size: Size(width: width, height: height))
    }

    /// Wraps pixels owned elsewhere; `owner` is retained for the surface's lifetime.
    public init(wrapping baseAddress: UnsafeMutablePointer<UInt32>, size: Size, stridePixels: Int, owner: AnyObject? = nil) {
        precondition(stridePixels >= size.width, "stride must cover a whole row")
        self.baseAddress = baseAddress
        self.size = size
        self.stridePixels = stridePixels
        self.owner = owner
        ownsMemory = false
    }

    deinit {
        if ownsMemory { baseAddress.deallocate() }
    }

    /// A sub-surface sharing these pixels, clipped to the surface bounds.
    public func view(_ rect: Rect) -> Surface {
        let r = rect.intersection(bounds)
        return Surface(
            wrapping: baseAddress + r.minY * stridePixels + r.minX,
            size: r.size, stridePixels: stridePixels, owner: self)
    }

    /// The first pixel of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        baseAddress + y * stridePixels
    }

    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
            return baseAddress[y * stridePixels + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
            baseAddress[y * stridePixels + x] = newValue
        }
    }

    /// Copies the pixels of `rect` from `source` (same size) into this surface.
    public func copy(_ rect: Rect, from source: Surface) {
        precondition(source.size == size, "copy between surfaces of different sizes")
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            (row(y) + r.minX).update(from: source.row(y) + r.minX, count: r.width)
        }
    }
}
