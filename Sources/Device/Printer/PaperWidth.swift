/// The roll a receipt printer takes, and how many dots its head prints
/// across it.
///
/// Counter printers (Epson TM-T20, Star TSP100 and their kin) print 8 dots
/// per millimetre (203 dpi) across 48 mm of a 58 mm roll and 72 mm of an
/// 80 mm roll. A printer with another head (the 180-dpi TM-T88 prints 512
/// dots on 80 mm) is described with ``init(millimetres:dots:)``.
public struct PaperWidth: Hashable, Sendable, CustomStringConvertible {
    /// The roll's width, as teller.conf's `printer_paper_mm` names it.
    public let millimetres: Int
    /// Dots across the printable width: the widest raster the printer takes.
    public let dots: Int

    public init(millimetres: Int, dots: Int) {
        precondition(dots > 0, "a printer prints at least one dot across")
        self.millimetres = millimetres
        self.dots = dots
    }

    /// 58 mm paper: 384 dots at 203 dpi.
    public static let millimetres58 = PaperWidth(millimetres: 58, dots: 384)
    /// 80 mm paper: 576 dots at 203 dpi.
    public static let millimetres80 = PaperWidth(millimetres: 80, dots: 576)

    /// The 203-dpi width for a roll of `millimetres`; nil unless 58 or 80.
    public static func standard(millimetres: Int) -> PaperWidth? {
        switch millimetres {
        case 58: .millimetres58
        case 80: .millimetres80
        default: nil
        }
    }

    public var description: String { "\(millimetres) mm (\(dots) dots)" }
}
