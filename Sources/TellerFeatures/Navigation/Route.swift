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
    case review(TransactionRequest)
    case receipt(OutboxEntry)
    case queue
    case diagnostics
}
