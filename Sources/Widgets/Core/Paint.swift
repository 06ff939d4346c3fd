import Graphics

/// One drawing operation of a laid-out node, in absolute pixels.
///
/// Paints are values, so comparing two trees tells exactly which nodes
/// would draw differently.
public enum Paint: Hashable, Sendable {
    /// A filled rect with rounded corners (radius 0 for square).
    case fill(Rect, Color, radius: Int)
    /// A border of `width` pixels inside the rect.
    case stroke(Rect, Color, radius: Int, width: Int)
    /// One line of text with the pen starting at `baseline`.
    case text(String, FontSpec, Color, baseline: Point)
    /// A straight line between two pixel centres.
    case line(from: Point, to: Point, width: Int, Color)
    /// A filled disc (PIN dots, status lights).
    case circle(center: Point, radius: Int, Color)
}
