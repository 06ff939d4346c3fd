import TellerCore

/// Who is at the terminal. Signing out or locking replaces the whole route stack.
public enum SessionPhase: Hashable, Sendable {
    case signedOut
    case locked(Operator)
    case active(Operator)

    public var signedInOperator: Operator? {
        switch self {
        case .signedOut: nil
        case .locked(let op), .active(let op): op
        }
    }
}

/// One screen of the signed-in stack.
public enum Route: Hashable, Sendable {
    case home
    case findAccount
    case account(IBAN)
    case amount(IBAN, TransactionKind)
    /// The last look before the row is written; `approver` is the
    /// supervisor whose approval let it through, when one did.
    case review(TransactionRequest, approver: Operator? = nil)
    case receipt(OutboxEntry)
    case queue
    case diagnostics
    /// The operator's till: open it with a count, see the cash position, close it with a count.
    case till
    /// A closed till: expected, counted, over or short, and the supervisor who approved the difference.
    case tillClosed(TillSession, approver: Operator? = nil)
    /// A supervisor signs on this screen to approve what was refused.
    case approval(ApprovalSubject)
}

/// What a supervisor is asked to approve.
public enum ApprovalSubject: Hashable, Sendable {
    /// A payment over a counter limit a supervisor may lift (``LimitViolation/isOverridable``).
    case payment(TransactionRequest, over: LimitViolation)
    /// Closing the till with a count off by more than the tolerance.
    case tillClose(TillCount, overShort: Money)
}

extension Coordinator {
    /// The view model for a route: the one place a new route is built.
    func makeViewModel(_ route: Route) -> any ScreenViewModel {
        switch route {
        case .home:
            return HomeViewModel(dependencies: dependencies, navigator: self)
        case .findAccount:
            return FindAccountViewModel(navigator: self)
        case .account(let iban):
            return AccountViewModel(dependencies: dependencies, navigator: self, iban: iban)
        case .amount(let iban, let kind):
            // The account's own currency when its screen below has loaded it.
            let account = nearest(AccountViewModel.self) { $0.iban == iban }
            let currency = account?.state.value?.currency ?? dependencies.terminalCurrency
            return AmountEntryViewModel(dependencies: dependencies, navigator: self, account: iban, kind: kind, currency: currency)
        case .review(let request, let approver):
            return ReviewViewModel(dependencies: dependencies, navigator: self, request: request, approver: approver)
        case .receipt(let entry):
            return ReceiptViewModel(dependencies: dependencies, navigator: self, entry: entry)
        case .queue:
            return QueueViewModel(dependencies: dependencies, navigator: self)
        case .diagnostics:
            return DiagnosticsViewModel(dependencies: dependencies, navigator: self)
        case .till:
            return TillViewModel(dependencies: dependencies, navigator: self)
        case .tillClosed(let till, let approver):
            return TillViewModel(dependencies: dependencies, navigator: self, closed: till, approver: approver)
        case .approval(let subject):
            return SignInViewModel(dependencies: dependencies, navigator: self, approving: subject)
        }
    }
}
