/// The words a keypad shows and speaks for its editing keys.
///
/// Supplied by the view model, which owns every user-visible string.
public struct KeypadLabels: Hashable, Sendable {
    /// Visible title of the enter key ("OK", "Sign in").
    public var enterTitle: String
    public var enter: String
    public var backspace: String
    public var space: String
    /// The spoken name of the whole keypad ("PIN pad", "Keyboard").
    public var keypad: String

    public init(enterTitle: String = "OK", enter: String = "Enter", backspace: String = "Delete", space: String = "Space",
                keypad: String = "Keypad") {
        self.keypad = keypad
        self.enterTitle = enterTitle
        self.enter = enter
        self.backspace = backspace
        self.space = space
    }

    public static let english = KeypadLabels()
}
