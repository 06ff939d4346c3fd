import Graphics

/// A declarative description of part of a screen.
///
/// Widgets are plain values built fresh for every state change. Layout turns
/// them into a ``LayoutNode`` tree of pixel frames, which is what rendering,
/// hit testing, damage tracking and accessibility work on.
public protocol Widget: Sendable {
    /// The size this widget would like within `available` pixels.
    ///
    /// Text wraps or truncates to `available.width`; the result may exceed
    /// `available` when the content cannot shrink (a stack then squeezes it).
    func measure(_ available: Size, _ context: LayoutContext) -> Size

    /// The smallest size this widget still works at (a key stays 48 dp, a
    /// label keeps one line); stacks squeeze children toward it when space runs out.
    func minimumSize(_ available: Size, _ context: LayoutContext) -> Size

    /// Share of a stack's spare space along `axis`; 0 means "my measured size".
    func flexibility(_ axis: Axis) -> Double

    /// The laid-out node (and subtree) for this widget placed in `frame`.
    func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode
}

extension Widget {
    public func flexibility(_ axis: Axis) -> Double { 0 }

    /// By default a widget cannot shrink below what it measures.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { measure(available, context) }
}
