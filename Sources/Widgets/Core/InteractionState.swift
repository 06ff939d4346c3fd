/// The transient UI state that changes how a tree looks but is not app data:
/// which control is pressed, which field has focus, how far lists are scrolled.
///
/// ``TouchTracker`` updates it; layout reads it, so a press shows up as a
/// changed node and the damage tracker redraws only that control.
public struct InteractionState: Hashable, Sendable {
    /// The identifier of the control under a finger that is still down.
    public var pressed: String?
    /// The identifier of the text field that receives typed keys.
    public var focused: String?
    /// Scroll offset in pixels per list identifier.
    public var scrollOffsets: [String: Int]

    public init(pressed: String? = nil, focused: String? = nil, scrollOffsets: [String: Int] = [:]) {
        self.pressed = pressed
        self.focused = focused
        self.scrollOffsets = scrollOffsets
    }

    /// The two ends a list can be sent to at once.
    public enum ScrollEdge: Hashable, Sendable {
        case top
        case bottom
    }

    /// Scrolls the list or scroll area `identifier` to its first or last row.
    ///
    /// The bottom is stored as an offset past any content; layout clamps it
    /// to the real end, and a drag starts from what is shown.
    public mutating func scroll(_ identifier: String, to edge: ScrollEdge) {
        scrollOffsets[identifier] = edge == .top ? 0 : Self.pastTheEnd
    }

    /// Further than any list is tall, yet far from overflowing when a drag adds to it.
    static let pastTheEnd = Int(Int32.max)
}
