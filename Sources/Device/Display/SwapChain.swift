import Graphics

/// The drawing side shared by every display: which surface the application
/// draws into, what is stale in it, and what to copy before a buffer is shown.
///
/// Two ways to draw:
/// - direct: with two or more XRGB8888 buffers and no rotation, the
///   application draws straight into the back scanout buffer, and
///   ``staleRegion`` reports what it must repair (buffer age); a single
///   buffer that nothing scans out while it is drawn (offscreen) is drawn
///   into directly too, saving a frame of memory;
/// - shadow: otherwise (rotation, RGB565, a single buffer) it draws into a
///   logical memory surface that is always complete, and ``prepare(damage:)``
///   copies the damage, plus what the scanout buffer missed, rotated and
///   converted.
///
/// Not thread-safe.
final class SwapChain {
    let transform: DisplayTransform
    let buffers: [ScanoutBuffer]
    private let shadow: Surface?
    private let direct: [Surface]
    private var ages: BufferAge
    /// Index of the buffer the next frame goes into.
    private(set) var back: Int

    /// - Parameter tearFree: true when no panel reads the buffers while they
    ///   are drawn, so even one buffer can be drawn into directly.
    init(transform: DisplayTransform, buffers: [ScanoutBuffer], owner: AnyObject?, firstBack: Int, tearFree: Bool = false) {
        precondition(!buffers.isEmpty, "a swap chain needs a buffer")
        self.transform = transform
        self.buffers = buffers
        let logical = Rect(origin: .zero, size: transform.logicalSize)
        let canDrawDirectly = transform.rotation == .degrees0 && (buffers.count >= 2 || tearFree) && buffers.allSatisfy { $0.format == .xrgb8888 }
        if canDrawDirectly {
            direct = buffers.map { $0.surface(owner: owner) }
            shadow = nil
        } else {
            direct = []
            shadow = Surface(size: transform.logicalSize)
        }
        ages = BufferAge(buffers: buffers.count, bounds: logical)
        back = firstBack
    }

    var drawsDirectly: Bool { shadow == nil }

    var backBuffer: Surface { shadow ?? direct[back] }

    var staleRegion: Rect { shadow == nil ? ages.stale(back) : .zero }

    /// Makes the back buffer ready to show and returns its index.
    func prepare(damage: Rect) -> Int {
        if let shadow {
            let region = damage.union(ages.stale(back))
            buffers[back].copy(region, from: shadow, transform: transform)
        }
        ages.presented(back, damage: damage)
        return back
    }

    /// The buffer shown by the last ``prepare(damage:)`` is on screen; draw into the next one.
    func advance() {
        back = (back + 1) % buffers.count
    }

    /// Forgets what the buffers hold (their content was lost, e.g. after a VT switch).
    func invalidate() { ages.invalidateAll() }
}
