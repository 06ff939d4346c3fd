extension Money {
    /// The most digits a cash-register keypad accepts: 12 digits is
    /// 9,999,999,999.99 in a two-decimal currency, far above any counter
    /// limit and far below Int64's range.
    public static let maximumKeypadDigits = 12

    /// Reads cash-register keypad input, where digits fill from the right:
    /// typing 1 2 3 4 5 in EUR gives 123.45.
    ///
    /// - Throws: ``MoneyError/emptyAmount`` for no digits,
    ///   ``MoneyError/notADigit(_:)`` for anything but 0-9, and
    ///   ``MoneyError/tooManyDigits(maximum:)`` past ``maximumKeypadDigits``
    ///   significant digits.
    public init(keypadDigits: String, currency: Currency) throws(MoneyError) {
        guard !keypadDigits.isEmpty else { throw .emptyAmount }
        var value: Int64 = 0
        var significant = 0
        for character in keypadDigits {
            guard let digit = character.wholeNumberValue, character.isASCII else { throw .notADigit(character) }
            if significant > 0 || digit != 0 { significant += 1 }
            guard significant <= Money.maximumKeypadDigits else { throw .tooManyDigits(maximum: Money.maximumKeypadDigits) }
            value = value * 10 + Int64(digit)
        }
        self.init(minorUnits: value, currency: currency)
    }
}
