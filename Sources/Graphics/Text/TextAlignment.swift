/// Horizontal placement of a line of text in its box.
public enum TextAlignment: String, Hashable, Sendable, Codable {
    case leading, center, trailing
}
