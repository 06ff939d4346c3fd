/// A layout direction.
public enum Axis: String, Hashable, Sendable, Codable {
    case horizontal, vertical
}
