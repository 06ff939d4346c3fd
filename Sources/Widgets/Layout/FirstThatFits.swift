import Graphics

/// The first of several arrangements of the same content whose minimum
/// size fits: a row that folds into a column when large text leaves it no
/// width, a screen that folds its title into one row when large text leaves
/// it no height. Text that must stay whole (an IBAN, an amount, a name)
/// moves instead of losing letters, and keys keep their touch size. The
/// last arrangement is used when none fits.
public struct FirstThatFits: Widget {
    public var axis: Axis
    public var arrangements: [any Widget]

    /// Arrangements tried by width.
    public init(_ arrangements: [any Widget]) { self.init(.horizontal, arrangements) }

    /// - Parameter axis: The dimension that must fit: width or height.
    public init(_ axis: Axis, _ arrangements: [any Widget]) {
        precondition(!arrangements.isEmpty, "FirstThatFits needs at least one arrangement")
        self.axis = axis
        self.arrangements = arrangements
    }

    func arrangement(for available: Size, _ context: LayoutContext) -> any Widget {
        arrangements.first { arrangement in
            switch axis {
            case .horizontal:
                return arrangement.minimumSize(Size(width: available.width, height: Int(Int32.max) / 4), context).width <= available.width
            case .vertical:
                return arrangement.minimumSize(available, context).height <= available.height
            }
        } ?? arrangements[arrangements.count - 1]
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        arrangement(for: available, context).measure(available, context)
    }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        arrangement(for: available, context).minimumSize(available, context)
    }

    public func flexibility(_ axis: Axis) -> Double { arrangements.map { $0.flexibility(axis) }.max() ?? 0 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        arrangement(for: frame.size, context).layout(in: frame, context)
    }
}
