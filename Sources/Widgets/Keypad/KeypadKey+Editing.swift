extension KeypadKey {
    /// `text` after this key is typed into it: characters append, backspace
    /// removes the last character, enter leaves it unchanged (the screen
    /// decides what enter submits).
    /// - Parameter maxLength: Characters beyond this are ignored (a PIN of 6, an amount of 12).
    public func applied(to text: String, maxLength: Int = .max) -> String {
        switch self {
        case .backspace: return String(text.dropLast())
        case .enter: return text
        default:
            guard let typed = self.text else { return text }
            return String((text + typed).prefix(maxLength))
        }
    }
}
