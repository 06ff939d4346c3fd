/// One key of a ``Keypad``; its ``identifierSuffix`` ends the key's identifier.
public enum KeypadKey: Hashable, Sendable {
    case digit(Int)
    case doubleZero
    /// An upper-case Latin letter A to Z.
    case letter(Character)
    case space
    case backspace
    case enter

    /// The part after the keypad's identifier: `1`, `00`, `A`, `space`, `backspace`, `enter`.
    public var identifierSuffix: String {
        switch self {
        case .digit(let n): return String(n)
        case .doubleZero: return "00"
        case .letter(let c): return String(c)
        case .space: return "space"
        case .backspace: return "backspace"
        case .enter: return "enter"
        }
    }

    /// The character a key types, or nil for the editing keys.
    public var text: String? {
        switch self {
        case .digit(let n): return String(n)
        case .doubleZero: return "00"
        case .letter(let c): return String(c)
        case .space: return " "
        case .backspace, .enter: return nil
        }
    }

    /// The key a tap identifier names, if it belongs to the keypad `keypadIdentifier`.
    ///
    /// Lets a screen turn `sign-in.pin.7` back into `.digit(7)`.
    public init?(tapIdentifier: String, keypadIdentifier: String) {
        let prefix = keypadIdentifier + "."
        guard tapIdentifier.hasPrefix(prefix) else { return nil }
        let suffix = String(tapIdentifier.dropFirst(prefix.count))
        switch suffix {
        case "00": self = .doubleZero
        case "space": self = .space
        case "backspace": self = .backspace
        case "enter": self = .enter
        default:
            if suffix.count == 1, let digit = Int(suffix) {
                self = .digit(digit)
            } else if suffix.count == 1, let c = suffix.first, c.isASCII, c.isUppercase {
                self = .letter(c)
            } else {
                return nil
            }
        }
    }
}
