import TellerFeatures

/// The view model on top, as an optional per screen, so a test reads
/// `try #require(h.coordinator.current.review)` and fails, naming the
/// screen, when another one is on top (never a silent early return).
@MainActor
extension ScreenModel {
    public var signIn: SignInViewModel? { if case .signIn(let model) = self { model } else { nil } }
    public var locked: LockedViewModel? { if case .locked(let model) = self { model } else { nil } }
    public var home: HomeViewModel? { if case .home(let model) = self { model } else { nil } }
    public var findAccount: FindAccountViewModel? { if case .findAccount(let model) = self { model } else { nil } }
    public var account: AccountViewModel? { if case .account(let model) = self { model } else { nil } }
    public var amount: AmountEntryViewModel? { if case .amount(let model) = self { model } else { nil } }
    public var review: ReviewViewModel? { if case .review(let model) = self { model } else { nil } }
    public var receipt: ReceiptViewModel? { if case .receipt(let model) = self { model } else { nil } }
    public var queue: QueueViewModel? { if case .queue(let model) = self { model } else { nil } }
    public var diagnostics: DiagnosticsViewModel? { if case .diagnostics(let model) = self { model } else { nil } }
}
