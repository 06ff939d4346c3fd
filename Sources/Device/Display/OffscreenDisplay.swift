import Graphics

/// A display in memory, for tests, headless runs and screenshots.
///
/// ``scanout`` is what a panel would show, in the physical (unrotated)
/// frame, so rotation can be tested without hardware. Frames complete at
/// once. With one buffer the application draws straight into it; with two
/// it draws into the one not shown and repairs what that buffer missed
/// (buffer age), then the two swap: DRM's double buffering without the
/// panel. Not thread-safe.
public final class OffscreenDisplay: Display {
    public let transform: DisplayTransform
    private let buffers: [Surface]
    private var shown = 0
    private var chain: SwapChain!
    public private(set) var presentedFrames = 0
    public private(set) var lastPresentedAt: MonotonicInstant?

    /// The panel's pixels after the last ``present(damage:)``.
    public var scanout: Surface { buffers[shown] }

    /// - Parameters:
    ///   - physicalSize: the panel's native size.
    ///   - rotation: how the logical image is turned on the panel.
    ///   - bufferCount: 1 (the default, no second frame of memory) or 2 (as DRM flips).
    public init(physicalSize: Size, rotation: Rotation = .degrees0, bufferCount: Int = 1) {
        precondition(bufferCount == 1 || bufferCount == 2, "an offscreen display has one or two buffers")
        transform = DisplayTransform(rotation: rotation, physicalSize: physicalSize)
        buffers = (0..<bufferCount).map { _ in Surface(size: physicalSize) }
        let scanoutBuffers = buffers.map { surface in
            ScanoutBuffer(base: UnsafeMutableRawPointer(surface.baseAddress), strideBytes: surface.strideBytes,
                          size: physicalSize, format: .xrgb8888)
        }
        chain = SwapChain(transform: transform, buffers: scanoutBuffers, owner: BufferOwner(buffers), firstBack: bufferCount - 1,
                          tearFree: bufferCount == 1)
        shown = 0
    }

    public var name: String { "offscreen \(transform.physicalSize.width)x\(transform.physicalSize.height) rotation \(transform.rotation.rawValue)" }
    public var size: Size { transform.logicalSize }
    public var backBuffer: Surface { chain.backBuffer }
    public var staleRegion: Rect { chain.staleRegion }
    public var isReadyForFrame: Bool { true }
    public var readableDescriptor: Int32? { nil }

    public func present(damage: Rect) throws(DisplayError) {
        shown = chain.prepare(damage: damage)
        chain.advance()
        presentedFrames += 1
        lastPresentedAt = .now()
    }

    public func handleReadable() throws(DisplayError) {}
}

/// Keeps an offscreen display's buffers alive as long as a surface drawn into them is.
private final class BufferOwner {
    let buffers: [Surface]
    init(_ buffers: [Surface]) { self.buffers = buffers }
}
