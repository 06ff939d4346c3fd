/// What a scrolling node (a list's viewport, a scroll area) keeps so that it
/// can be laid out again alone when only its scroll offset changed, and the
/// children it does not build until someone asks for them (a long list's
/// rows out of view).
///
/// Dragging a list changes nothing else on the screen: the runtime swaps
/// ``relayout(_:)``'s node into the tree it keeps instead of laying the
/// whole screen out again. Rendering, hit testing and damage see only
/// ``LayoutNode/children``; accessibility and the look-ups by identifier see
/// ``LayoutNode/allChildren``, which asks ``allChildren(of:)``.
public protocol ScrollingContent: Sendable {
    /// The key of the offset in ``InteractionState/scrollOffsets``.
    var scrollIdentifier: String { get }
    /// The node again, exactly as laying out the whole screen with `context`
    /// (its state's offsets and press) would make it.
    func relayout(_ context: LayoutContext) -> LayoutNode
    /// Every child of `node` (the node this content belongs to) in order:
    /// those it built and those it left for later.
    func allChildren(of node: LayoutNode) -> [LayoutNode]
    /// True when `other` makes the same children.
    func isSame(as other: any ScrollingContent) -> Bool
}

/// A ``ScrollingContent`` in a ``LayoutNode``: equal when the contents are the same.
public struct Scrolling: Hashable, Sendable {
    public let content: any ScrollingContent

    public init(_ content: any ScrollingContent) { self.content = content }

    public static func == (a: Scrolling, b: Scrolling) -> Bool { a.content.isSame(as: b.content) }

    public func hash(into hasher: inout Hasher) { hasher.combine(content.scrollIdentifier) }
}
