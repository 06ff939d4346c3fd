/// The view model of the screen on top, one case per screen.
@MainActor
public enum ScreenModel {
    case signIn(SignInViewModel)
    case locked(LockedViewModel)
    case home(HomeViewModel)
    case findAccount(FindAccountViewModel)
    case account(AccountViewModel)
    case amount(AmountEntryViewModel)
    case review(ReviewViewModel)
    case receipt(ReceiptViewModel)
    case queue(QueueViewModel)
    case diagnostics(DiagnosticsViewModel)

    /// A stable name for logs, `teller ctl status` and tests.
    public var name: String {
        switch self {
        case .signIn: "sign-in"
        case .locked: "locked"
        case .home: "home"
        case .findAccount: "find-account"
        case .account: "account"
        case .amount: "amount"
        case .review: "review"
        case .receipt: "receipt"
        case .queue: "queue"
        case .diagnostics: "diagnostics"
        }
    }
}
