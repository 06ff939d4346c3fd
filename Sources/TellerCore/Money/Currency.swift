/// An ISO 4217 currency: its three-letter code and the number of minor-unit
/// digits (the exponent: 2 for EUR cents, 0 for JPY, 3 for KWD fils).
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    public let exponent: Int

    /// A currency Teller knows, or nil for an unknown or malformed code.
    public init?(code: String) {
        guard let exponent = Currency.exponents[code.uppercased()] else { return nil }
        self.code = code.uppercased()
        self.exponent = exponent
    }

    public var description: String { code }

    /// 10^exponent: how many minor units make one major unit.
    public var minorPerMajor: Int64 {
        var value: Int64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency(code: code) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown currency '\(code)'"))
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    public static let eur = Currency(code: "EUR")!
    public static let gbp = Currency(code: "GBP")!
    public static let usd = Currency(code: "USD")!

    /// Minor-unit exponents from ISO 4217 for the currencies a European
    /// branch network handles, plus a few common others.
    static let exponents: [String: Int] = [
        "EUR": 2, "GBP": 2, "USD": 2, "CHF": 2, "SEK": 2, "NOK": 2, "DKK": 2,
        "PLN": 2, "CZK": 2, "HUF": 2, "RON": 2, "BGN": 2, "ISK": 0, "TRY": 2,
        "CAD": 2, "AUD": 2, "NZD": 2, "JPY": 0, "KRW": 0, "CLP": 0,
        "BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3,
    ]
}
