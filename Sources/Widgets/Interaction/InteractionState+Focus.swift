extension InteractionState {
    /// Moves focus to the next (or previous) field of `tree`, wrapping around.
    ///
    /// With no field focused, forward focuses the first field and backward the last.
    public mutating func moveFocus(forward: Bool, in tree: LayoutNode) {
        let order = tree.focusOrder
        guard !order.isEmpty else { return focused = nil }
        guard let current = focused, let index = order.firstIndex(of: current) else {
            return focused = forward ? order.first : order.last
        }
        focused = order[(index + (forward ? 1 : order.count - 1)) % order.count]
    }
}
