/// What a node does when touched.
public enum Interaction: Hashable, Sendable {
    /// Not interactive; touches go to the nearest interactive ancestor.
    case none
    /// A control that reports a tap with its identifier.
    case tap
    /// A text field: a tap focuses it and reports a tap.
    case focus
    /// A list that scrolls vertically by dragging; content is this many pixels tall.
    case scroll(contentHeight: Int)
    /// Swallows touches, as a modal's scrim does for the screen below it.
    case blocker
}
