/// Nested clip rectangles; the effective clip is the intersection of all pushed rects.
///
/// Widgets push a clip for a scrolling list and the renderer pushes one per
/// damaged rect, so nested clips must never grow what an outer clip allowed.
public struct ClipStack: Sendable {
    private var stack: [Rect]

    /// Starts with `bounds` (usually the surface bounds) as the outermost clip.
    public init(bounds: Rect) { stack = [bounds] }

    /// The rect that drawing is currently limited to; possibly empty.
    public var current: Rect { stack[stack.count - 1] }

    /// Limits drawing to `rect` intersected with the current clip.
    public mutating func push(_ rect: Rect) { stack.append(current.intersection(rect)) }

    /// Restores the clip that was current before the matching ``push(_:)``.
    public mutating func pop() {
        precondition(stack.count > 1, "ClipStack.pop without a matching push")
        stack.removeLast()
    }

    /// How many clips are pushed above the outermost bounds.
    public var depth: Int { stack.count - 1 }
}
