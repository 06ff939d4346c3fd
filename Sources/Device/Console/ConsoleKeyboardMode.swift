import CDRM

/// What a virtual terminal's keyboard does with key presses (KDGKBMODE,
/// KDSKBMODE). Teller reads keys through evdev, which every mode leaves alone.
public struct ConsoleKeyboardMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// K_RAW: scancodes to the reader of the tty.
    public static let raw = ConsoleKeyboardMode(rawValue: Int32(K_RAW))
    /// K_XLATE: the keymap's 8-bit characters.
    public static let translated = ConsoleKeyboardMode(rawValue: Int32(K_XLATE))
    /// K_MEDIUMRAW: keycodes to the reader of the tty.
    public static let mediumRaw = ConsoleKeyboardMode(rawValue: Int32(K_MEDIUMRAW))
    /// K_UNICODE: the keymap's UTF-8 text, the console's usual mode.
    public static let unicode = ConsoleKeyboardMode(rawValue: Int32(K_UNICODE))
    /// K_OFF: the console takes no key at all: no typing, no Ctrl+Alt+Fn switch, no Ctrl+Alt+Del from the keymap.
    public static let off = ConsoleKeyboardMode(rawValue: Int32(K_OFF))

    /// The kernel's names without the `K_`: "raw", "xlate", "mediumraw", "unicode", "off".
    public var description: String {
        switch self {
        case .raw: "raw"
        case .translated: "xlate"
        case .mediumRaw: "mediumraw"
        case .unicode: "unicode"
        case .off: "off"
        default: "mode \(rawValue)"
        }
    }
}
