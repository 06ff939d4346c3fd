/// The arrangement of a keypad's keys.
public enum KeypadLayout: String, Hashable, Sendable, Codable {
    /// 1-9, 00, 0, backspace, and a wide enter key: PINs and amounts.
    case numeric
    /// Digits, QWERTY letters, space, backspace and enter: names and references.
    case alphanumeric

    /// Rows of (key, width in units); each row is centred.
    var rows: [[(key: KeypadKey, units: Int)]] {
        switch self {
        case .numeric:
            return [
                [(.digit(1), 1), (.digit(2), 1), (.digit(3), 1)],
                [(.digit(4), 1), (.digit(5), 1), (.digit(6), 1)],
                [(.digit(7), 1), (.digit(8), 1), (.digit(9), 1)],
                [(.doubleZero, 1), (.digit(0), 1), (.backspace, 1)],
                [(.enter, 3)],
            ]
        case .alphanumeric:
            let letters = { (s: String) in s.map { (key: KeypadKey.letter($0), units: 1) } }
            return [
                (1...9).map { (key: KeypadKey.digit($0), units: 1) } + [(.digit(0), 1)],
                letters("QWERTYUIOP"),
                letters("ASDFGHJKL"),
                letters("ZXCVBNM") + [(.backspace, 3)],
                [(.space, 7), (.enter, 3)],
            ]
        }
    }

    /// Units across the widest row.
    var columns: Int { self == .numeric ? 3 : 10 }
}
