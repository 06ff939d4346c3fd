import TellerCore
/// The operator's words for the host's rejection reason codes
/// (docs/host-api.md §6). An unknown code is shown as the host's detail.
public enum ReasonText {
    public static func text(_ code: String, detail: String? = nil) -> String {
        switch code {
        case "insufficient_funds": tr("Insufficient funds")
        case "account_not_found": tr("Account not found at the bank")
        case "account_blocked": tr("Account is blocked")
        case "currency_mismatch": tr("Currency does not match the account")
        case "operator_not_found": tr("Operator not known to the bank")
        case "same_account": tr("Transfer to the same account")
        case "counterparty_not_found": tr("Recipient account not found")
        case "counterparty_blocked": tr("Recipient account is blocked")
        default: Localization.verbatim(detail.flatMap { $0.isEmpty ? nil : $0 } ?? code.replacing("_", with: " "))
        }
    }
}
