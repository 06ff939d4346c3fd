import Graphics

/// A blank area for checking a touch panel: a dot where each touch landed
/// and a crosshair on each target to tap (touch test and calibration).
///
/// It takes no touches itself; the app hands raw touches to whoever runs
/// the test and passes the marks back in the next tree. Meant to fill the
/// whole display, so that display pixels and the area's pixels agree.
public struct TouchMarks: Widget {
    public var identifier: String
    /// The spoken name of the area ("Touch test area").
    public var label: String
    /// Touch positions in display pixels; those outside the area are not drawn.
    public var dots: [(x: Int, y: Int)]
    /// Targets as fractions (0...1) of the area's width and height.
    public var crosses: [(x: Double, y: Double)]

    public init(identifier: String, label: String, dots: [(x: Int, y: Int)] = [], crosses: [(x: Double, y: Double)] = []) {
        self.identifier = identifier
        self.label = label
        self.dots = dots
        self.crosses = crosses
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size { available }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { .zero }

    public func flexibility(_ axis: Axis) -> Double { 1 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        let radius = max(3, context.px(6))
        var paints: [Paint] = []
        for dot in dots where frame.insetBy(dx: radius, dy: radius).contains(Point(x: dot.x, y: dot.y)) {
            paints.append(.circle(center: Point(x: dot.x, y: dot.y), radius: radius, theme.focus))
        }
        let arm = context.px(24)
        let width = max(2, context.px(2))
        for cross in crosses {
            let x = frame.minX + Int((Double(frame.width - 1) * min(1, max(0, cross.x))).rounded())
            let y = frame.minY + Int((Double(frame.height - 1) * min(1, max(0, cross.y))).rounded())
            let left = max(frame.minX, x - arm), right = min(frame.maxX - 1, x + arm)
            let top = max(frame.minY, y - arm), bottom = min(frame.maxY - 1, y + arm)
            paints.append(.line(from: Point(x: left, y: y), to: Point(x: right, y: y), width: width, theme.primaryText))
            paints.append(.line(from: Point(x: x, y: top), to: Point(x: x, y: bottom), width: width, theme.primaryText))
            paints.append(.circle(center: Point(x: x, y: y), radius: max(2, context.px(3)), theme.danger))
        }
        return LayoutNode(frame: frame, role: .group, identifier: identifier, label: label,
                          value: crosses.isEmpty ? String(dots.count) : nil, paints: paints)
    }
}
