import FoundationEssentials

/// The counter limits a terminal is provisioned with, all in the terminal's
/// currency. A limit that is hit exactly is allowed; one unit more is not.
public struct Limits: Hashable, Sendable {
    public let currency: Currency
    /// The most one transaction may move.
    public let perTransaction: Money
    /// The most this terminal may move in one calendar day (rejected rows excluded).
    public let dailyPerTerminal: Money
    /// The most one transaction may move while the host is unreachable.
    public let perOfflineTransaction: Money
    /// The most that may wait in the queue while the host is unreachable.
    public let offlineQueuedTotal: Money
    /// How old the oldest queued row may get before offline entry stops.
    public let maxOfflineAge: TimeInterval

    /// - Throws: ``LimitsError`` when an amount is in another currency or
    ///   not positive, or the offline limits exceed the online ones.
    public init(currency: Currency, perTransaction: Money, dailyPerTerminal: Money, perOfflineTransaction: Money, offlineQueuedTotal: Money, maxOfflineAge: TimeInterval) throws(LimitsError) {
        for (name, amount) in [("per_transaction", perTransaction), ("daily_per_terminal", dailyPerTerminal), ("offline_per_transaction", perOfflineTransaction), ("offline_queued_total", offlineQueuedTotal)] {
            guard amount.currency == currency else { throw .wrongCurrency(limit: name, amount.currency, expected: currency) }
            guard amount.minorUnits > 0 else { throw .notPositive(limit: name) }
        }
        guard maxOfflineAge > 0 else { throw .notPositive(limit: "max_offline_age") }
        guard perOfflineTransaction.minorUnits <= perTransaction.minorUnits else {
            throw .offlineAboveOnline(limit: "offline_per_transaction", online: "per_transaction")
        }
        self.currency = currency
        self.perTransaction = perTransaction
        self.dailyPerTerminal = dailyPerTerminal
        self.perOfflineTransaction = perOfflineTransaction
        self.offlineQueuedTotal = offlineQueuedTotal
        self.maxOfflineAge = maxOfflineAge
    }
}

/// Why a set of limits is not usable; names the configuration key.
public enum LimitsError: Error, Hashable, Sendable, CustomStringConvertible {
    case wrongCurrency(limit: String, Currency, expected: Currency)
    case notPositive(limit: String)
    case offlineAboveOnline(limit: String, online: String)

    public var description: String {
        switch self {
        case .wrongCurrency(let limit, let got, let expected): "\(limit) is in \(got.code) but the terminal currency is \(expected.code)."
        case .notPositive(let limit): "\(limit) must be greater than zero."
        case .offlineAboveOnline(let limit, let online): "\(limit) must not exceed \(online)."
        }
    }
}
