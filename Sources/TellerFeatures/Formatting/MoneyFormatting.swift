import TellerCore

/// How amounts read on the counter, in the bank's regional format:
/// grouped digits, the currency's own decimals, and its symbol or ISO code
/// where the language puts it. "12,480.25 EUR" or "€12,480.25" in English,
/// "12.480,25 €" in German and Spanish, "١٢٬٤٨٠٫٢٥ €" in Arabic with native
/// digits. A minus is U+2212.
///
/// Each function comes twice: without a format it writes in the terminal's
/// (``Localization/format``, read at each call) and can be passed as a
/// function (`amounts.map(MoneyFormatting.text)`); with `format:` it writes
/// in the one given, so tests read any language without switching the
/// process-wide one.
public enum MoneyFormatting {
    /// The amount as screens show it. In Arabic and pseudo it is isolated
    /// left to right, so it never reads backwards inside Arabic text.
    public static func text(_ money: Money) -> String { text(money, format: Localization.format) }

    public static func text(_ money: Money, format: RegionalFormat) -> String {
        format.leftToRight(format.digits(unisolated(money, sign: money.isNegative ? "\u{2212}" : "", rules: format.rules, display: format.currencyDisplay)))
    }

    /// The figure alone, without the currency, where the currency is said
    /// once nearby: a till's note and coin tiles ("50.00", "0.20").
    public static func figure(_ money: Money) -> String {
        let format = Localization.format
        return format.leftToRight(format.digits(number(money, rules: format.rules)))
    }

    /// With an explicit sign, for activity lines: "+50.00 EUR", "−12.00 EUR".
    public static func signed(_ money: Money) -> String { signed(money, format: Localization.format) }

    public static func signed(_ money: Money, format: RegionalFormat) -> String {
        let sign = money.minorUnits > 0 ? "+" : money.isNegative ? "\u{2212}" : ""
        return format.leftToRight(format.digits(unisolated(money, sign: sign, rules: format.rules, display: format.currencyDisplay)))
    }

    /// How the spoken label reads an amount: no grouping, the ISO code
    /// spelled, the minus said: "minus 1234.50 EUR".
    public static func spoken(_ money: Money) -> String { spoken(money, format: Localization.format) }

    public static func spoken(_ money: Money, format: RegionalFormat) -> String {
        var rules = format.rules
        rules.groupingSeparator = ""
        let amount = format.digits(unisolated(money, sign: "", rules: rules, display: .code))
        return money.isNegative ? tr("minus {amount}", ["amount": amount]) : amount
    }

    private static func unisolated(_ money: Money, sign: String, rules: RegionalRules, display: RegionalFormat.CurrencyDisplay) -> String {
        let amount = number(money, rules: rules)
        guard display == .symbol, let symbol = money.currency.symbol else {
            return "\(sign)\(amount) \(money.currency.code)"
        }
        guard rules.symbolBeforeAmount else { return "\(sign)\(amount) \(symbol)" }
        // A symbol of letters ("CHF") needs a space before the digits; "€" does not.
        let space = symbol.unicodeScalars.allSatisfy { $0.properties.isAlphabetic } ? " " : ""
        return "\(sign)\(symbol)\(space)\(amount)"
    }

    /// The magnitude's digits, grouped, with the currency's decimals.
    private static func number(_ money: Money, rules: RegionalRules) -> String {
        let magnitude = money.minorUnits.magnitude
        let divisor = UInt64(money.currency.minorPerMajor)
        var text = rules.grouped(String(magnitude / divisor))
        if money.currency.exponent > 0 {
            text += rules.decimalSeparator + (magnitude % divisor).zeroPadded(money.currency.exponent)
        }
        return text
    }
}
