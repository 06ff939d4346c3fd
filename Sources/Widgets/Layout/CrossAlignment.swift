/// Where a stack places a child that is narrower than the stack across its axis.
public enum CrossAlignment: String, Hashable, Sendable, Codable {
    /// Left in a vertical stack, top in a horizontal one.
    case start
    case center
    /// Right in a vertical stack, bottom in a horizontal one.
    case end
    /// Stretch to the stack's full cross size.
    case fill
}
