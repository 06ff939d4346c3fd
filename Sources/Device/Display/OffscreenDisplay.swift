import Graphics

/// A display in memory, for tests, headless runs and screenshots.
///
/// ``scanout`` is what a panel would show, in the physical (unrotated)
/// frame, so rotation can be tested without hardware. Frames complete at
/// once. Not thread-safe.
public final class OffscreenDisplay: Display {
    public let transform: DisplayTransform
    /// The panel's pixels after the last ``present(damage:)``.
    public let scanout: Surface
    private var chain: SwapChain!
    public private(set) var presentedFrames = 0

    /// - Parameters:
    ///   - physicalSize: the panel's native size.
    ///   - rotation: how the logical image is turned on the panel.
    public init(physicalSize: Size, rotation: Rotation = .degrees0) {
        transform = DisplayTransform(rotation: rotation, physicalSize: physicalSize)
        scanout = Surface(size: physicalSize)
        let buffer = ScanoutBuffer(
            base: UnsafeMutableRawPointer(scanout.baseAddress), strideBytes: scanout.strideBytes,
            size: physicalSize, format: .xrgb8888)
        chain = SwapChain(transform: transform, buffers: [buffer], owner: scanout, firstBack: 0, tearFree: true)
    }

    public var name: String { "offscreen \(transform.physicalSize.width)x\(transform.physicalSize.height) rotation \(transform.rotation.rawValue)" }
    public var size: Size { transform.logicalSize }
    public var backBuffer: Surface { chain.backBuffer }
    public var staleRegion: Rect { chain.staleRegion }
    public var isReadyForFrame: Bool { true }
    public var readableDescriptor: Int32? { nil }

    public func present(damage: Rect) throws(DisplayError) {
        _ = chain.prepare(damage: damage)
        chain.advance()
        presentedFrames += 1
    }

    public func handleReadable() throws(DisplayError) {}
}
