import CDRM

/// What a virtual terminal shows (KDGETMODE, KDSETMODE): the kernel's
/// console text, or nothing of it, because a program draws there.
public struct ConsoleDisplayMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// KD_TEXT: fbcon draws the console's text (and a cursor) over the display.
    public static let text = ConsoleDisplayMode(rawValue: Int32(KD_TEXT))
    /// KD_GRAPHICS: fbcon draws nothing on this VT, even while no program holds the display.
    public static let graphics = ConsoleDisplayMode(rawValue: Int32(KD_GRAPHICS))

    /// "text", "graphics"; "mode N" for the obsolete others.
    public var description: String {
        switch self {
        case .text: "text"
        case .graphics: "graphics"
        default: "mode \(rawValue)"
        }
    }
}
