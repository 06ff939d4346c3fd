import Graphics

/// Tracks, for each buffer of a swap chain, which pixels changed since the
/// buffer was last drawn (its buffer age, as a region).
///
/// When buffer `i` comes back as the back buffer it still holds the frame
/// from its last turn; ``stale(_:)`` is what later frames changed, and must
/// be redrawn (or copied) before presenting it again. A buffer never drawn
/// is stale everywhere. Regions are kept as bounding rects.
struct BufferAge: Sendable {
    private var missed: [Rect]
    let bounds: Rect

    init(buffers: Int, bounds: Rect) {
        self.bounds = bounds
        missed = Array(repeating: bounds, count: buffers)
    }

    /// What buffer `index` lacks relative to the last presented frame.
    func stale(_ index: Int) -> Rect { missed[index] }

    /// Buffer `index` was brought up to date and `damage` was drawn into it, then presented.
    mutating func presented(_ index: Int, damage: Rect) {
        let change = damage.intersection(bounds)
        for i in missed.indices where i != index { missed[i] = missed[i].union(change) }
        missed[index] = .zero
    }

    /// Every buffer must be redrawn (after a mode change, or lost content).
    mutating func invalidateAll() {
        for i in missed.indices { missed[i] = bounds }
    }
}
