import TellerCore

/// The refusal an operator reads when a limit stops a transaction; it
/// always names the limit. ``LimitViolation``'s own `description` is the
/// English for logs and tests; this is the only wording on screen.
public enum LimitText {
    public static func text(_ violation: LimitViolation) -> String {
        switch violation {
        case .currencyNotSupported(let currency, let terminal):
            tr("This terminal handles {terminal}, not {currency}.", ["terminal": Localization.leftToRight(terminal.code), "currency": Localization.leftToRight(currency.code)])
        case .perTransaction(let limit):
            tr("Over the per-transaction limit of {limit}.", ["limit": MoneyFormatting.text(limit)])
        case .dailyTotal(let limit, let remaining):
            tr("Over the daily terminal limit of {limit}: {remaining} left today.", ["limit": MoneyFormatting.text(limit), "remaining": MoneyFormatting.text(remaining)])
        case .offlinePerTransaction(let limit):
            tr("Over the offline limit of {limit} per transaction.", ["limit": MoneyFormatting.text(limit)])
        case .offlineQueuedTotal(let limit, let remaining):
            tr("Over the offline queue limit of {limit}: {remaining} left while offline.", ["limit": MoneyFormatting.text(limit), "remaining": MoneyFormatting.text(remaining)])
        case .offlineQueueTooOld(let maxAge):
            trn("Offline for too long: the oldest queued transaction is over {count} h old. Reconnect to the bank first.",
                "Offline for too long: the oldest queued transaction is over {count} h old. Reconnect to the bank first.", count: Int(maxAge / 3600))
        case .noKnownBalance:
            tr("No known balance for this account on this terminal: withdrawals and transfers need the bank while offline.")
        case .insufficientAvailable(let withdrawable):
            tr("Over the last known available balance minus queued debits: {amount} can be paid out.", ["amount": MoneyFormatting.text(withdrawable)])
        case .arithmetic(let error):
            ErrorText.text(error)
        }
    }
}
