/// What a completed touch means for the app.
public enum TouchEvent: Hashable, Sendable {
    /// A control was tapped (finger went up on it without dragging away).
    case tap(identifier: String)
}
