/// How prominent a button is.
public enum ButtonStyle: String, Hashable, Sendable, Codable {
    /// The one action the screen is for (Confirm, Sign in).
    case primary
    /// Alternatives (Cancel, Back).
    case secondary
    /// Actions that lose or reverse something (Void, Sign out).
    case destructive
}
