import Graphics

extension LayoutNode {
    /// The chain of nodes under `point`, root first, topmost child last.
    ///
    /// Later siblings are on top (a modal's scrim comes after the screen), so
    /// they are tried first; children of a clipping node only count inside it.
    /// A node with an empty frame (an empty stack) is looked through: only
    /// a child of it can be hit, so it never hides the siblings under it.
    public func hitPath(at point: Point) -> [LayoutNode] {
        let inside = frame.contains(point)
        guard inside || (!clipsChildren && frame.isEmpty) else { return [] }
        for child in children.reversed() {
            let path = child.hitPath(at: point)
            if !path.isEmpty { return [self] + path }
        }
        return inside ? [self] : []
    }

    /// The innermost interactive node under `point`, or nil.
    ///
    /// A modal scrim is interactive (it blocks), so touches outside a dialog
    /// hit the scrim and never the controls below it.
    public func hitTest(_ point: Point) -> LayoutNode? {
        hitPath(at: point).last { $0.interaction != .none }
    }

    /// The identifier of the control a tap at `point` would reach, or nil.
    public func identifier(at point: Point) -> String? {
        guard let node = hitTest(point), node.interaction == .tap || node.interaction == .focus, node.isEnabled else {
            return nil
        }
        return node.identifier
    }

    /// Identifiers of every focusable field in reading order, for Tab/Shift-Tab
    /// from a hardware keyboard or scanner.
    public var focusOrder: [String] {
        var order: [String] = []
        forEach { node in
            if node.interaction == .focus, node.isEnabled, let id = node.identifier { order.append(id) }
        }
        return order
    }
}
