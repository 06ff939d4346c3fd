/// Solves a touch calibration from three taps: the affine matrix, in
/// libinput's LIBINPUT_CALIBRATION_MATRIX convention, that maps where the
/// panel reported each tap (normalised 0...1, before calibration) onto the
/// target that was shown there.
public enum CalibrationSolver {
    /// - Returns: `[a, b, c, d, e, f]` with x' = a·x + b·y + c and
    ///   y' = d·x + e·y + f, or nil when the three taps are (nearly) on one line.
    public static func matrix(targets: [(x: Double, y: Double)], measured: [(x: Double, y: Double)]) -> [Double]? {
        guard targets.count == 3, measured.count == 3 else { return nil }
        let m = measured
        let determinant = m[0].x * (m[1].y - m[2].y) - m[0].y * (m[1].x - m[2].x) + (m[1].x * m[2].y - m[2].x * m[1].y)
        guard abs(determinant) > 1e-6 else { return nil }
        func solve(_ t: [Double]) -> (Double, Double, Double) {
            // Cramer's rule on [x y 1]·[p q r]ᵀ = t for the three taps.
            let p = (t[0] * (m[1].y - m[2].y) - m[0].y * (t[1] - t[2]) + (t[1] * m[2].y - t[2] * m[1].y)) / determinant
            let q = (m[0].x * (t[1] - t[2]) - t[0] * (m[1].x - m[2].x) + (m[1].x * t[2] - m[2].x * t[1])) / determinant
            let r = (m[0].x * (m[1].y * t[2] - m[2].y * t[1]) - m[0].y * (m[1].x * t[2] - m[2].x * t[1]) + t[0] * (m[1].x * m[2].y - m[2].x * m[1].y)) / determinant
            return (p, q, r)
        }
        let (a, b, c) = solve(targets.map(\.x))
        let (d, e, f) = solve(targets.map(\.y))
        return [a, b, c, d, e, f]
    }
}
