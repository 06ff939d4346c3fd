/// Where a stack places a child that is narrower than the stack across its axis.
public enum CrossAlignment: String, Hashable, Sendable, Codable {
    /// Leading in a vertical stack (left, or right when the layout runs
    /// right to left), top in a horizontal one.
    case start
    case center
    /// Trailing in a vertical stack, bottom in a horizontal one.
    case end
    /// Stretch to the stack's full cross size.
    case fill
}
