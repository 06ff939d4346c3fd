/// A key from a hardware keyboard or a barcode/card scanner (which types
/// like a keyboard and ends with Enter).
public enum TerminalKey: Hashable, Sendable {
    case character(Character)
    case enter
    case backspace
    /// Moves focus between the fields of a form.
    case tab
}
