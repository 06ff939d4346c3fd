import TellerCore

/// An amount as teller.conf writes it, in major units ("2000" or
/// "2000.50"), kept digit for digit until the file's currency is known:
/// the limits may come before the `currency` line.
public struct ConfiguredAmount: Equatable, Sendable, ExpressibleByIntegerLiteral {
    /// The whole units, at most 12 digits.
    public let whole: Int64
    /// The digits after the point, as written: "50" in 2000.50.
    public let fraction: [UInt8]

    public init(integerLiteral whole: Int64) {
        self.whole = whole
        fraction = []
    }

    /// Reads digits with at most one point and digits on both sides of it;
    /// nil for anything else ("50,000", "1e3", ".5", more than 12 whole digits).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.map { Array($0.utf8) }
        guard (1...2).contains(parts.count), digits.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              digits[0].count <= 12, let whole = Int64(parts[0]) else { return nil }
        self.whole = whole
        fraction = parts.count == 2 ? digits[1].map { $0 - UInt8(ascii: "0") } : []
    }

    public var isZero: Bool { whole == 0 && fraction.allSatisfy { $0 == 0 } }

    /// Whether `currency`'s minor units hold the amount exactly: 2000.500
    /// fits EUR, 10.505 does not.
    public func fits(_ currency: Currency) -> Bool {
        fraction.dropFirst(currency.exponent).allSatisfy { $0 == 0 }
    }

    /// The amount in `currency`'s minor units; decimals beyond the
    /// currency's are dropped (``fits(_:)`` tells whether there are any).
    public func money(in currency: Currency) -> Money {
        var minor = whole
        for index in 0..<currency.exponent {
            minor = minor * 10 + Int64(index < fraction.count ? fraction[index] : 0)
        }
        return Money(minorUnits: minor, currency: currency)
    }
}
