/// The meaning a badge's colour carries.
public enum BadgeTone: String, Hashable, Sendable, Codable {
    case neutral, success, warning, danger
}
