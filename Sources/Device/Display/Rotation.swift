import Graphics

/// How the logical (drawn) image is turned on the physical panel, clockwise.
///
/// `.degrees90` means the application draws a portrait `H x W` image and the
/// panel, natively `W x H`, shows it rotated a quarter turn clockwise: the
/// logical top-left corner lands at the panel's top-right.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case degrees0 = 0
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270

    /// Parses "0", "90", "180" or "270" (the provisioning file's format).
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    public var swapsAxes: Bool { self == .degrees90 || self == .degrees270 }
}

/// The one mapping between the logical frame (what the app draws and where
/// touches are reported) and the physical frame (the panel's scanout buffer
/// and the touch controller's unrotated axes).
///
/// Displays use it to copy rotated pixels; ``TouchMapping`` uses it to turn
/// panel coordinates into logical ones. Both directions are computed here,
/// from the unrotated frame, so output and touch cannot disagree.
public struct DisplayTransform: Hashable, Sendable {
    public var rotation: Rotation
    /// The panel's native resolution.
    public var physicalSize: Size

    public init(rotation: Rotation, physicalSize: Size) {
        self.rotation = rotation
        self.physicalSize = physicalSize
    }

    /// The size the application draws at.
    public var logicalSize: Size {
        rotation.swapsAxes ? Size(width: physicalSize.height, height: physicalSize.width) : physicalSize
    }

    /// The panel pixel that shows logical pixel `p`.
    @inline(__always)
    public func physical(fromLogical p: Point) -> Point {
        let w = physicalSize.width, h = physicalSize.height
        switch rotation {
        case .degrees0: return p
        case .degrees90: return Point(x: w - 1 - p.y, y: p.x)
        case .degrees180: return Point(x: w - 1 - p.x, y: h - 1 - p.y)
        case .degrees270: return Point(x: p.y, y: h - 1 - p.x)
        }
    }

    /// The logical pixel shown at panel pixel `p`.
    public func logical(fromPhysical p: Point) -> Point {
        let w = physicalSize.width, h = physicalSize.height
        switch rotation {
        case .degrees0: return p
        case .degrees90: return Point(x: p.y, y: w - 1 - p.x)
        case .degrees180: return Point(x: w - 1 - p.x, y: h - 1 - p.y)
        case .degrees270: return Point(x: h - 1 - p.y, y: p.x)
        }
    }

    /// The panel rectangle covering logical rectangle `r`.
    public func physical(fromLogical r: Rect) -> Rect {
        guard !r.isEmpty else { return .zero }
        let a = physical(fromLogical: r.origin)
        let b = physical(fromLogical: Point(x: r.maxX - 1, y: r.maxY - 1))
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// Normalised panel coordinates (0..<1 on each axis) to normalised logical
    /// ones: the same rotation as ``logical(fromPhysical:)`` on a continuous plane.
    public var normalizedLogicalFromPhysical: AffineMatrix {
        switch rotation {
        case .degrees0: .identity
        case .degrees90: AffineMatrix(0, 1, 0, -1, 0, 1)
        case .degrees180: AffineMatrix(-1, 0, 1, 0, -1, 1)
        case .degrees270: AffineMatrix(0, -1, 1, 1, 0, 0)
        }
    }
}

/// A 2x3 affine matrix `[a b c; d e f]` mapping `(x, y)` to
/// `(a·x + b·y + c, d·x + e·y + f)`, in libinput's
/// LIBINPUT_CALIBRATION_MATRIX convention: coordinates are normalised, so
/// (0, 0) is the top-left and (1, 1) the bottom-right of the area.
public struct AffineMatrix: Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// Parses six numbers separated by spaces or commas, as udev's
    /// LIBINPUT_CALIBRATION_MATRIX property and the provisioning file write them.
    public init?(_ text: String) {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).compactMap { Double($0) }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        guard numbers.count == 6, parts.count == 6 else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    public static let identity = AffineMatrix(1, 0, 0, 0, 1, 0)

    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// `self` after `first`: applying the result equals applying `first`, then `self`.
    public func concatenating(after first: AffineMatrix) -> AffineMatrix {
        AffineMatrix(
            a * first.a + b * first.d, a * first.b + b * first.e, a * first.c + b * first.f + c,
            d * first.a + e * first.d, d * first.b + e * first.e, d * first.c + e * first.f + f)
    }

    public var description: String { "\(a) \(b) \(c) \(d) \(e) \(f)" }
}
