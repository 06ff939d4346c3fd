import TellerCore

/// How amounts read on the counter: grouped digits, the currency's own
/// decimals and the ISO code after, "1,234.50 EUR", so no symbol is ambiguous.
public enum MoneyFormatting {
    public static func text(_ money: Money) -> String {
        let magnitude = money.minorUnits.magnitude
        let divisor = UInt64(money.currency.minorPerMajor)
        let major = grouped(String(magnitude / divisor))
        var text = money.minorUnits < 0 ? "−" + major : major
        if money.currency.exponent > 0 {
            text += "." + (magnitude % divisor).zeroPadded(money.currency.exponent)
        }
        return "\(text) \(money.currency.code)"
    }

    /// With an explicit sign, for activity lines: "+50.00 EUR", "−12.00 EUR".
    public static func signed(_ money: Money) -> String {
        money.minorUnits > 0 ? "+" + text(money) : text(money)
    }

    /// How the spoken label reads an amount: "1234.50 euro" style with the code spelled.
    public static func spoken(_ money: Money) -> String {
        text(money).replacing(",", with: "").replacing("−", with: "minus ")
    }

    static func grouped(_ digits: String) -> String {
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
