import Foundation

/// What the stored outbox says at the moment a transaction is checked.
public struct LimitContext: Hashable, Sendable {
    public var isOnline: Bool
    /// Everything this terminal entered today that was not rejected.
    public var todayTotal: Money
    /// Queued and sending rows: money not yet at the host.
    public var queuedTotal: Money
    /// Age of the oldest queued row, nil when the queue is empty.
    public var oldestQueuedAge: TimeInterval?
    /// For debits: the last known available balance of the account minus
    /// its pending debits; nil when the terminal never saw the account.
    public var withdrawable: Money?

    public init(isOnline: Bool, todayTotal: Money, queuedTotal: Money, oldestQueuedAge: TimeInterval?, withdrawable: Money?) {
        self.isOnline = isOnline
        self.todayTotal = todayTotal
        self.queuedTotal = queuedTotal
        self.oldestQueuedAge = oldestQueuedAge
        self.withdrawable = withdrawable
    }
}

/// How much is still allowed, for the amount entry screen.
public struct RemainingLimits: Hashable, Sendable {
    public let perTransaction: Money
    public let today: Money
    /// Present only while offline.
    public let offlinePerTransaction: Money?
    public let offlineQueue: Money?
    /// For debits offline: last known available minus pending debits.
    public let withdrawable: Money?

    /// The largest amount that would pass every limit now.
    public var largestAllowed: Money {
        let candidates = [perTransaction, today, offlinePerTransaction, offlineQueue, withdrawable].compactMap { $0 }
        return candidates.min { $0.minorUnits < $1.minorUnits } ?? perTransaction
    }
}

/// A limit that refuses a transaction. The description names the limit so
/// the operator can tell the customer why.
public enum LimitViolation: Error, Hashable, Sendable, CustomStringConvertible {
    case currencyNotSupported(Currency, terminal: Currency)
    case perTransaction(limit: Money)
    case dailyTotal(limit: Money, remaining: Money)
    case offlinePerTransaction(limit: Money)
    case offlineQueuedTotal(limit: Money, remaining: Money)
    case offlineQueueTooOld(maxAge: TimeInterval)
    case noKnownBalance
    case insufficientAvailable(withdrawable: Money)
    case arithmetic(MoneyError)

    /// The limit's configuration key, for logs and tests.
    public var limitName: String {
        switch self {
        case .currencyNotSupported: "currency"
        case .perTransaction: "per_transaction"
        case .dailyTotal: "daily_per_terminal"
        case .offlinePerTransaction: "offline_per_transaction"
        case .offlineQueuedTotal: "offline_queued_total"
        case .offlineQueueTooOld: "max_offline_age"
        case .noKnownBalance, .insufficientAvailable: "available_balance"
        case .arithmetic: "amount"
        }
    }

    public var description: String {
        switch self {
        case .currencyNotSupported(let c, let terminal): "This terminal handles \(terminal.code), not \(c.code)."
        case .perTransaction(let limit): "Over the per-transaction limit of \(limit)."
        case .dailyTotal(let limit, let remaining): "Over the daily terminal limit of \(limit); \(remaining) left today."
        case .offlinePerTransaction(let limit): "Over the offline per-transaction limit of \(limit)."
        case .offlineQueuedTotal(let limit, let remaining): "Over the offline queue limit of \(limit); \(remaining) left."
        case .offlineQueueTooOld(let maxAge): "The offline queue is older than \(Int(maxAge / 3600)) h; connect to the host first."
        case .noKnownBalance: "No known balance for this account; withdrawals need the host."
        case .insufficientAvailable(let withdrawable): "Over the last known available balance; \(withdrawable) can be withdrawn."
        case .arithmetic(let error): error.description
        }
    }
}

extension Limits {
    /// Checks one amount against every limit, in the order an operator
    /// would want to hear about them: the plain limits, then the offline
    /// ones, then the account's own balance.
    public func check(_ amount: Money, kind: TransactionKind, context: LimitContext) throws(LimitViolation) {
        guard amount.currency == currency else { throw .currencyNotSupported(amount.currency, terminal: currency) }
        let remaining = try self.remaining(kind: kind, context: context)
        if amount.minorUnits > perTransaction.minorUnits { throw .perTransaction(limit: perTransaction) }
        if amount.minorUnits > remaining.today.minorUnits { throw .dailyTotal(limit: dailyPerTerminal, remaining: remaining.today) }
        if !context.isOnline {
            if let age = context.oldestQueuedAge, age > maxOfflineAge { throw .offlineQueueTooOld(maxAge: maxOfflineAge) }
            if amount.minorUnits > perOfflineTransaction.minorUnits { throw .offlinePerTransaction(limit: perOfflineTransaction) }
            if let left = remaining.offlineQueue, amount.minorUnits > left.minorUnits {
                throw .offlineQueuedTotal(limit: offlineQueuedTotal, remaining: left)
            }
            if kind.isDebit {
                guard let withdrawable = context.withdrawable else { throw .noKnownBalance }
                if amount.currency == withdrawable.currency, amount.minorUnits > withdrawable.minorUnits {
                    throw .insufficientAvailable(withdrawable: withdrawable)
                }
            }
        }
    }

    /// What is left under each limit; never negative.
    public func remaining(kind: TransactionKind, context: LimitContext) throws(LimitViolation) -> RemainingLimits {
        do {
            let today = try dailyPerTerminal.subtracting(context.todayTotal).clampedAtZero()
            guard !context.isOnline else {
                return RemainingLimits(perTransaction: perTransaction, today: today, offlinePerTransaction: nil, offlineQueue: nil, withdrawable: nil)
            }
            let queue = try offlineQueuedTotal.subtracting(context.queuedTotal).clampedAtZero()
            let withdrawable = kind.isDebit ? context.withdrawable?.clampedAtZero() : nil
            return RemainingLimits(perTransaction: perTransaction, today: today, offlinePerTransaction: perOfflineTransaction, offlineQueue: queue, withdrawable: withdrawable)
        } catch {
            throw .arithmetic(error)
        }
    }
}

extension Money {
    func clampedAtZero() -> Money { minorUnits < 0 ? .zero(currency) : self }
}
