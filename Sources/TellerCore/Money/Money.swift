/// An amount of money: a whole number of minor units in one currency.
///
/// Arithmetic is overflow-checked and refuses to mix currencies; it throws
/// ``MoneyError`` instead of trapping or silently converting.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    public var isZero: Bool { minorUnits == 0 }
    public var isNegative: Bool { minorUnits < 0 }

    public func adding(_ other: Money) throws(MoneyError) -> Money {
        try sameCurrency(other)
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        if overflow { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        try sameCurrency(other)
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        if overflow { throw .overflow }
        return Money(minorUnits: difference, currency: currency)
    }

    public func negated() throws(MoneyError) -> Money {
        guard minorUnits != .min else { throw .overflow }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    /// Orders two amounts of the same currency.
    public func compare(_ other: Money) throws(MoneyError) -> ComparisonResult {
        try sameCurrency(other)
        if minorUnits < other.minorUnits { return .ascending }
        if minorUnits > other.minorUnits { return .descending }
        return .same
    }

    private func sameCurrency(_ other: Money) throws(MoneyError) {
        guard currency == other.currency else { throw .currencyMismatch(currency, other.currency) }
    }

    /// The plain decimal amount without grouping or symbol: "1234.50", "-0.05", "700" (JPY).
    /// Locale-aware display belongs to the view models.
    public var decimalString: String {
        let magnitude = minorUnits.magnitude
        let divisor = UInt64(currency.minorPerMajor)
        let major = magnitude / divisor
        var text = minorUnits < 0 ? "-\(major)" : "\(major)"
        if currency.exponent > 0 {
            text += "." + (magnitude % divisor).zeroPadded(currency.exponent)
        }
        return text
    }

    public var description: String { "\(decimalString) \(currency.code)" }

    /// Sums amounts of one currency; an empty list sums to zero.
    public static func sum(_ amounts: [Money], currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in amounts { total = try total.adding(amount) }
        return total
    }
}

/// The three-way result of ``Money/compare(_:)``.
public enum ComparisonResult: Sendable {
    case ascending, same, descending
}

/// Why a money operation was refused.
public enum MoneyError: Error, Hashable, Sendable, CustomStringConvertible {
    case overflow
    case currencyMismatch(Currency, Currency)
    case emptyAmount
    case tooManyDigits(maximum: Int)
    case notADigit(Character)
    case unknownCurrency(String)

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .overflow: "The amount is too large to represent."
        case .currencyMismatch(let a, let b): "Cannot combine \(a.code) with \(b.code)."
        case .emptyAmount: "Enter an amount."
        case .tooManyDigits(let maximum): "An amount has at most \(maximum) digits."
        case .notADigit(let c): "'\(c)' is not a digit."
        case .unknownCurrency(let code): "Unknown currency '\(code)'."
        }
    }
}
