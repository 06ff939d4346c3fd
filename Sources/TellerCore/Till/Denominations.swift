/// The notes and coins of one currency that a till is counted in, largest
/// first, in minor units (a EUR 50 note is 5000).
///
/// Each currency a European branch network handles has a table built in
/// (``standard(for:)``); a bank that withdrew a note or counts rolls of coins
/// sets its own list with the `till_denominations` configuration key.
public struct DenominationTable: Hashable, Sendable {
    public let currency: Currency
    /// Distinct, positive, largest first.
    public let denominations: [Int64]
    /// The smallest note: everything below it is a coin (for the count screen's grouping).
    public let smallestNote: Int64

    /// - Throws: ``DenominationError`` when the list is empty, repeats a
    ///   value or holds one that is not positive.
    public init(currency: Currency, denominations: [Int64], smallestNote: Int64? = nil) throws(DenominationError) {
        guard !denominations.isEmpty else { throw .empty }
        var seen: Set<Int64> = []
        for value in denominations {
            guard value > 0 else { throw .notPositive(value) }
            guard seen.insert(value).inserted else { throw .repeated(value) }
        }
        self.currency = currency
        self.denominations = denominations.sorted(by: >)
        self.smallestNote = smallestNote ?? self.denominations.last!
    }

    /// Whether `value` (minor units) is a note rather than a coin.
    public func isNote(_ value: Int64) -> Bool { value >= smallestNote }

    /// The table in use for `currency`: its circulating notes and coins, or
    /// nil for a currency without a built-in table (the configuration must
    /// then name its denominations).
    public static func standard(for currency: Currency) -> DenominationTable? {
        guard let (values, smallestNote) = standardValues[currency.code] else { return nil }
        return try? DenominationTable(currency: currency, denominations: values, smallestNote: smallestNote)
    }

    /// Notes and coins in circulation, in minor units, with the smallest note.
    private static let standardValues: [String: ([Int64], Int64)] = [
        "EUR": ([50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1], 500),
        "USD": ([10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1], 100),
        "GBP": ([5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1], 500),
        "CHF": ([100000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5], 1000),
        "SEK": ([100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100], 2000),
        "NOK": ([100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 100], 5000),
        "DKK": ([100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50], 5000),
        "PLN": ([50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1], 1000),
        "CZK": ([500000, 200000, 100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100], 10000),
    ]
}

/// Why a denomination list cannot be used.
public enum DenominationError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case notPositive(Int64)
    case repeated(Int64)

    public var description: String {
        switch self {
        case .empty: "no denominations are listed"
        case .notPositive(let value): "a denomination of \(value) minor units is not positive"
        case .repeated(let value): "the denomination of \(value) minor units is listed twice"
        }
    }
}

/// A till count: how many pieces of each denomination the operator counted.
public struct TillCount: Hashable, Sendable {
    public let currency: Currency
    /// Pieces per denomination (minor units); denominations not counted are absent or 0.
    public private(set) var pieces: [Int64: Int]

    /// The most pieces of one denomination a count takes: a full drawer of
    /// coins is a few thousand, and more is a typing error.
    public static let maximumPieces = 99_999

    public init(currency: Currency, pieces: [Int64: Int] = [:]) {
        self.currency = currency
        self.pieces = pieces.filter { $0.value != 0 }
    }

    /// Sets the pieces of one denomination.
    /// - Throws: ``TillRefusal/badCount(_:)`` for a negative or too large count,
    ///   or a denomination the table does not have.
    public mutating func set(_ count: Int, of denomination: Int64, in table: DenominationTable) throws(TillRefusal) {
        try Self.check(count, of: denomination, in: table)
        pieces[denomination] = count == 0 ? nil : count
    }

    /// Whether the whole count can be taken by a till counted in `table`: its currency, denominations and pieces.
    /// - Throws: ``TillRefusal/badCount(_:)`` naming what is wrong.
    public func validate(in table: DenominationTable) throws(TillRefusal) {
        guard currency == table.currency else { throw .badCount("the count is in \(currency.code), the till in \(table.currency.code)") }
        for (denomination, count) in pieces { try Self.check(count, of: denomination, in: table) }
    }

    private static func check(_ count: Int, of denomination: Int64, in table: DenominationTable) throws(TillRefusal) {
        guard table.denominations.contains(denomination) else { throw .badCount("\(denomination) is not a denomination of \(table.currency.code)") }
        guard (0...maximumPieces).contains(count) else { throw .badCount("\(count) pieces of \(denomination) is not 0 to \(maximumPieces)") }
    }

    /// The count's value.
    public var total: Money {
        Money(minorUnits: pieces.reduce(0) { $0 + $1.key * Int64($1.value) }, currency: currency)
    }

    /// The count as stored and sent: a JSON object of denomination to pieces,
    /// denominations largest first, zero counts left out.
    public var json: String {
        "{" + pieces.keys.sorted(by: >).map { "\"\($0)\":\(pieces[$0]!)" }.joined(separator: ",") + "}"
    }

    /// Reads ``json`` back.
    /// - Returns: nil unless it is exactly such an object of positive values.
    public init?(json: String, currency: Currency) {
        let body = json.utf8
        guard body.first == UInt8(ascii: "{"), body.last == UInt8(ascii: "}") else { return nil }
        var pieces: [Int64: Int] = [:]
        let inner = json.dropFirst().dropLast()
        if !inner.isEmpty {
            for member in inner.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = member.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].count > 2, parts[0].first == "\"", parts[0].last == "\"",
                      let denomination = Int64(parts[0].dropFirst().dropLast()), denomination > 0,
                      let count = Int(parts[1]), count > 0, pieces[denomination] == nil else { return nil }
                pieces[denomination] = count
            }
        }
        self.init(currency: currency, pieces: pieces)
    }
}
