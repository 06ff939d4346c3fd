/// Digits typed on a keypad, with a maximum length; the basis of PIN,
/// operator id and amount entry.
public struct KeypadEntry: Hashable, Sendable {
    public private(set) var digits = ""
    public let maximumLength: Int

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Appends a digit; false (and no change) when full or not a digit.
    @discardableResult
    public mutating func append(_ character: Character) -> Bool {
        guard character.isASCII, character.isNumber, digits.count < maximumLength else { return false }
        digits.append(character)
        return true
    }

    public mutating func backspace() {
        if !digits.isEmpty { digits.removeLast() }
    }

    public mutating func clear() { digits = "" }

    public var isEmpty: Bool { digits.isEmpty }

    /// One dot per digit, for PINs.
    public var masked: String { String(repeating: "•", count: digits.count) }
}
