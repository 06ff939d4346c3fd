/// Which screen shows a view model, carrying the view model. TellerUI builds
/// each screen in one exhaustive switch over this enum
/// (`Sources/TellerUI/Terminal/ScreenFactory.swift`), so a case without a
/// screen is a compile error there, and a view model without a case is one
/// here (``ScreenViewModel/screenKind`` has no default).
@MainActor
public enum ScreenKind {
    case signIn(SignInViewModel)
    case unprovisioned(UnprovisionedViewModel)
    case locked(LockedViewModel)
    case home(HomeViewModel)
    case findAccount(FindAccountViewModel)
    case account(AccountViewModel)
    case amountEntry(AmountEntryViewModel)
    case review(ReviewViewModel)
    case receipt(ReceiptViewModel)
    case queue(QueueViewModel)
    case diagnostics(DiagnosticsViewModel)
    case till(TillViewModel)
}
