import TellerFeatures

/// The view model on top, as an optional per screen, so a test reads
/// `try #require(h.coordinator.current.review)` and fails, naming the
/// screen, when another one is on top (never a silent early return).
@MainActor
extension ScreenViewModel {
    public var signIn: SignInViewModel? { self as? SignInViewModel }
    public var unprovisioned: UnprovisionedViewModel? { self as? UnprovisionedViewModel }
    public var locked: LockedViewModel? { self as? LockedViewModel }
    public var home: HomeViewModel? { self as? HomeViewModel }
    public var till: TillViewModel? { self as? TillViewModel }
    public var findAccount: FindAccountViewModel? { self as? FindAccountViewModel }
    public var account: AccountViewModel? { self as? AccountViewModel }
    public var amount: AmountEntryViewModel? { self as? AmountEntryViewModel }
    public var review: ReviewViewModel? { self as? ReviewViewModel }
    public var receipt: ReceiptViewModel? { self as? ReceiptViewModel }
    public var queue: QueueViewModel? { self as? QueueViewModel }
    public var diagnostics: DiagnosticsViewModel? { self as? DiagnosticsViewModel }
}
