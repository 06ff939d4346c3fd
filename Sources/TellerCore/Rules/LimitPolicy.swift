import FoundationEssentials

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

/// How much is still allowed, for the amount entry screen, and the one
/// place that decides whether an amount fits.
public struct RemainingLimits: Hashable, Sendable {
    public let perTransaction: Money
    public let dailyLimit: Money
    public let today: Money
    /// Present only while offline.
    public let offlinePerTransaction: Money?
    public let offlineQueueLimit: Money?
    public let offlineQueue: Money?
    /// While offline: the maximum age, when the oldest queued row is older.
    public let offlineQueueTooOld: TimeInterval?
    /// For debits offline: last known available minus pending debits.
    public let withdrawable: Money?
    /// Offline debits need a known balance.
    public let requiresKnownBalance: Bool

    /// The largest amount that would pass every limit now.
    public var largestAllowed: Money {
        let candidates = [perTransaction, today, offlinePerTransaction, offlineQueue, withdrawable].compactMap { $0 }
        return candidates.min { $0.minorUnits < $1.minorUnits } ?? perTransaction
    }

    /// The first limit `amount` breaks, in the order an operator would want
    /// to hear about them, or nil when it fits.
    /// - Parameter approved: a supervisor approved the payment: the limits a
    ///   supervisor may override (``LimitViolation/isOverridable``) are not checked.
    public func violation(for amount: Money, approved: Bool = false) -> LimitViolation? {
        let currency = perTransaction.currency
        guard amount.currency == currency else { return .currencyNotSupported(amount.currency, terminal: currency) }
        if !approved, amount.minorUnits > perTransaction.minorUnits { return .perTransaction(limit: perTransaction) }
        if !approved, amount.minorUnits > today.minorUnits { return .dailyTotal(limit: dailyLimit, remaining: today) }
        if let maxAge = offlineQueueTooOld { return .offlineQueueTooOld(maxAge: maxAge) }
        if let limit = offlinePerTransaction, amount.minorUnits > limit.minorUnits { return .offlinePerTransaction(limit: limit) }
        if let left = offlineQueue, let limit = offlineQueueLimit, amount.minorUnits > left.minorUnits {
            return .offlineQueuedTotal(limit: limit, remaining: left)
        }
        if requiresKnownBalance {
            guard let withdrawable else { return .noKnownBalance }
            if amount.minorUnits > withdrawable.minorUnits { return .insufficientAvailable(withdrawable: withdrawable) }
        }
        return nil
    }
}

/// A limit that refuses a transaction. Its `description` names the limit in
/// English for logs, `teller status` and tests; the operator's words, which
/// name it too so the operator can tell the customer why, are TellerFeatures'
/// `LimitText`, from the catalog.
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

    /// Whether a supervisor may approve a payment over this limit. Only the
    /// counter limits the branch sets for its own staff can be overridden:
    /// the per-transaction and the daily terminal limit. The offline limits
    /// (per transaction, the queue's total and age) cap what the bank risks
    /// on payments it has not seen, the known-balance rules keep an offline
    /// withdrawal within what the account holds, and the currency and the
    /// arithmetic are facts: no supervisor signs those away.
    public var isOverridable: Bool {
        switch self {
        case .perTransaction, .dailyTotal: true
        case .currencyNotSupported, .offlinePerTransaction, .offlineQueuedTotal, .offlineQueueTooOld, .noKnownBalance, .insufficientAvailable,
             .arithmetic: false
        }
    }

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

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `LimitText` words it from the catalog.
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
    /// Checks one amount against every limit.
    /// - Parameter approved: a supervisor approved it (``RemainingLimits/violation(for:approved:)``).
    public func check(_ amount: Money, kind: TransactionKind, context: LimitContext, approved: Bool = false) throws(LimitViolation) {
        guard amount.currency == currency else { throw .currencyNotSupported(amount.currency, terminal: currency) }
        if let violation = try remaining(kind: kind, context: context).violation(for: amount, approved: approved) { throw violation }
    }

    /// What is left under each limit; never negative.
    public func remaining(kind: TransactionKind, context: LimitContext) throws(LimitViolation) -> RemainingLimits {
        do {
            let today = try dailyPerTerminal.subtracting(context.todayTotal).clampedAtZero()
            let offline = !context.isOnline
            let queue = offline ? try offlineQueuedTotal.subtracting(context.queuedTotal).clampedAtZero() : nil
            let tooOld = offline && (context.oldestQueuedAge.map { $0 > maxOfflineAge } ?? false)
            return RemainingLimits(
                perTransaction: perTransaction, dailyLimit: dailyPerTerminal, today: today,
                offlinePerTransaction: offline ? perOfflineTransaction : nil,
                offlineQueueLimit: offline ? offlineQueuedTotal : nil, offlineQueue: queue,
                offlineQueueTooOld: tooOld ? maxOfflineAge : nil,
                withdrawable: offline && kind.isDebit ? context.withdrawable?.clampedAtZero() : nil,
                requiresKnownBalance: offline && kind.isDebit)
        } catch {
            throw .arithmetic(error)
        }
    }
}

extension Money {
    func clampedAtZero() -> Money { minorUnits < 0 ? .zero(currency) : self }
}
