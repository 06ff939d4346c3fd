import Graphics

/// Turns raw absolute axis values into logical screen pixels.
///
/// Three steps, in this order:
/// 1. Scale: `(raw - minimum) / (maximum - minimum + 1)` gives a normalised
///    panel coordinate in 0..<1, the same normalisation libinput uses.
/// 2. Rotate: ``DisplayTransform/normalizedLogicalFromPhysical``, the very
///    transform the display uses for its output.
/// 3. Calibrate: the 6-number matrix in libinput's
///    LIBINPUT_CALIBRATION_MATRIX convention, applied to the normalised,
///    rotated coordinates. With rotation 0 this is exactly what libinput
///    does, so values measured for libinput can be reused.
///
/// The result is multiplied by the logical size and rounded down, then
/// clamped onto the screen.
public struct TouchMapping: Hashable, Sendable {
    public var xAxis: AbsoluteAxis
    public var yAxis: AbsoluteAxis
    public var transform: DisplayTransform
    public var calibration: AffineMatrix
    private var combined: AffineMatrix

    public init(xAxis: AbsoluteAxis, yAxis: AbsoluteAxis, transform: DisplayTransform, calibration: AffineMatrix = .identity) {
        precondition(xAxis.maximum > xAxis.minimum && yAxis.maximum > yAxis.minimum, "an absolute axis needs maximum > minimum")
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.transform = transform
        self.calibration = calibration
        combined = calibration.concatenating(after: transform.normalizedLogicalFromPhysical)
    }

    /// The logical pixel for a raw `(x, y)` from the device.
    public func logicalPoint(rawX: Int32, rawY: Int32) -> Point {
        let u = Double(Int64(rawX) - Int64(xAxis.minimum)) / Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1)
        let v = Double(Int64(rawY) - Int64(yAxis.minimum)) / Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
        let (lu, lv) = combined.apply(u, v)
        let size = transform.logicalSize
        return Point(x: Self.pixel(lu, extent: size.width), y: Self.pixel(lv, extent: size.height))
    }

    /// `normalized · extent` rounded down and clamped onto `0..<extent`.
    ///
    /// Clamped as a Double, before `Int(_:)`: a calibration matrix can throw
    /// a point far off the screen (or to infinity), and `Int(_:)` traps on
    /// anything it cannot represent.
    private static func pixel(_ normalized: Double, extent: Int) -> Int {
        let scaled = (normalized * Double(extent)).rounded(.down)
        if scaled.isNaN { return 0 }
        return Int(min(max(scaled, 0), Double(max(extent - 1, 0))))
    }

    /// The raw values at the centre of panel pixel `p`: what a controller
    /// reports when touched there. Used by the uinput injector and tests.
    public static func raw(forPhysical p: Point, physicalSize: Size, xAxis: AbsoluteAxis, yAxis: AbsoluteAxis) -> (x: Int32, y: Int32) {
        func axis(_ pixel: Int, _ extent: Int, _ a: AbsoluteAxis) -> Int32 {
            let span = Double(Int64(a.maximum) - Int64(a.minimum) + 1)
            let offset = ((Double(pixel) + 0.5) / Double(extent) * span).rounded(.down)
            // A pixel off the panel (or a zero extent) must give the nearest edge, not a trap.
            guard !offset.isNaN else { return a.minimum }
            return Int32(clamping: Int64(a.minimum) + Int64(min(max(offset, 0), max(span - 1, 0))))
        }
        return (axis(p.x, physicalSize.width, xAxis), axis(p.y, physicalSize.height, yAxis))
    }
}
