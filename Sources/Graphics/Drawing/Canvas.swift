/// Draws into a ``Surface`` through a clip stack.
///
/// Every drawing call is limited to ``clip``; callers push a rect for each
/// damaged region or scrolling viewport and pop it afterwards. Coordinates are
/// device pixels of the surface.
///
/// Not thread-safe, like the surface it draws on.
public final class Canvas {
    /// The pixels being drawn on.
    public let surface: Surface
    private var clips: ClipStack

    /// A canvas whose outermost clip is the whole surface.
    public init(surface: Surface) {
        self.surface = surface
        clips = ClipStack(bounds: surface.bounds)
    }

    /// The rect drawing is currently limited to.
    public var clip: Rect { clips.current }

    /// Limits drawing to `rect` (within the current clip) until ``popClip()``.
    public func pushClip(_ rect: Rect) { clips.push(rect) }

    /// Restores the clip from before the matching ``pushClip(_:)``.
    public func popClip() { clips.pop() }

    /// Runs `body` with drawing limited to `rect`, then restores the clip.
    @discardableResult
    public func withClip<T>(_ rect: Rect, _ body: () throws -> T) rethrows -> T {
        clips.push(rect)
        defer { clips.pop() }
        return try body()
    }
}
