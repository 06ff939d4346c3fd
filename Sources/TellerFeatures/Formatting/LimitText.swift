import TellerCore

/// The refusal an operator reads when a limit stops a transaction; it
/// always names the limit.
public enum LimitText {
    public static func text(_ violation: LimitViolation) -> String {
        switch violation {
        case .currencyNotSupported(let currency, let terminal):
            "This terminal handles \(terminal.code), not \(currency.code)."
        case .perTransaction(let limit):
            "Over the per-transaction limit of \(MoneyFormatting.text(limit))."
        case .dailyTotal(let limit, let remaining):
            "Over the daily terminal limit of \(MoneyFormatting.text(limit)): \(MoneyFormatting.text(remaining)) left today."
        case .offlinePerTransaction(let limit):
            "Over the offline limit of \(MoneyFormatting.text(limit)) per transaction."
        case .offlineQueuedTotal(let limit, let remaining):
            "Over the offline queue limit of \(MoneyFormatting.text(limit)): \(MoneyFormatting.text(remaining)) left while offline."
        case .offlineQueueTooOld(let maxAge):
            "Offline for too long: the oldest queued transaction is over \(Int(maxAge / 3600)) h old. Reconnect to the bank first."
        case .noKnownBalance:
            "No known balance for this account on this terminal: withdrawals and transfers need the bank while offline."
        case .insufficientAvailable(let withdrawable):
            "Over the last known available balance minus queued debits: \(MoneyFormatting.text(withdrawable)) can be paid out."
        case .arithmetic(let error):
            error.description
        }
    }

    /// Any error an enqueue can give, in the operator's words.
    public static func text(_ error: TellerError) -> String {
        if case .limit(let violation) = error { return text(violation) }
        return error.description
    }
}
