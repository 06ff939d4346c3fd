import TellerFeatures

extension ScreenKind {
    /// The screen that shows the view model: the one place a view model
    /// meets its screen. The switch is exhaustive, so a new `ScreenKind`
    /// case without a screen here does not compile.
    var screen: any TerminalScreen {
        switch self {
        case .signIn(let model): SignInScreen(model: model)
        case .unprovisioned(let model): UnprovisionedScreen(model: model)
        case .locked(let model): LockedScreen(model: model)
        case .home(let model): HomeScreen(model: model)
        case .findAccount(let model): FindAccountScreen(model: model)
        case .account(let model): AccountScreen(model: model)
        case .amountEntry(let model): AmountEntryScreen(model: model)
        case .review(let model): ReviewScreen(model: model)
        case .receipt(let model): ReceiptScreen(model: model)
        case .queue(let model): QueueScreen(model: model)
        case .diagnostics(let model): DiagnosticsScreen(model: model)
        case .till(let model): TillScreen(model: model)
        }
    }
}
