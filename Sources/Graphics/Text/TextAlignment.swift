/// Horizontal placement of a line of text in its box.
public enum TextAlignment: String, Hashable, Sendable, Codable {
    case leading, center, trailing
}

extension TextAlignment {
    /// Where a line `width` pixels wide starts in `box`.
    public func lineStart(width: Int, in box: Rect) -> Int {
        switch self {
        case .leading: box.minX
        case .center: box.minX + (box.width - width) / 2
        case .trailing: box.maxX - width
        }
    }
}
