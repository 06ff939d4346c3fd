import TellerCore
/// The words an on-screen keypad shows and speaks. Screens hand them to the
/// keypad widget; like every other string they are owned here.
public struct KeypadText: Hashable, Sendable {
    /// The spoken name of the whole keypad ("PIN pad", "Keyboard").
    public let name: String
    /// The visible title of the enter key ("Sign in", "Open").
    public let enterTitle: String
    /// The spoken name of the enter key.
    public let enter: String
    public let backspace: String
    public let space: String

    public init(name: String, enterTitle: String, enter: String? = nil, backspace: String = tr("Delete"), space: String = tr("Space")) {
        self.name = name
        self.enterTitle = enterTitle
        self.enter = enter ?? enterTitle
        self.backspace = backspace
        self.space = space
    }
}
