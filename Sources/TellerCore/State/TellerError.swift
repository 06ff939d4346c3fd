import Foundation

/// The errors the ports report to the features, already translated from
/// SQLite, HTTP and the file system at the data layer's border.
public enum TellerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host cannot be reached; work continues offline.
    case offline
    case accountNotFound(IBAN)
    case limit(LimitViolation)
    case rule(TransactionRuleError)
    case money(MoneyError)
    case signIn(SignInError)
    /// The row the operator acted on is not (or no longer) in the outbox.
    case noSuchEntry(IdempotencyKey)
    /// The local database failed; the message names the file and the problem.
    case storage(String)
    /// The host answered with something the terminal cannot use.
    case host(String)

    public var description: String {
        switch self {
        case .offline: "The bank's host cannot be reached."
        case .accountNotFound(let iban): "No account \(iban.grouped)."
        case .limit(let violation): violation.description
        case .rule(let error): error.description
        case .money(let error): error.description
        case .signIn(let error): error.description
        case .noSuchEntry(let key): "No queued transaction \(key)."
        case .storage(let message): "Local storage: \(message)"
        case .host(let message): "Host: \(message)"
        }
    }
}

/// Why an operator could not sign in or unlock.
public enum SignInError: Error, Hashable, Sendable, CustomStringConvertible {
    case wrongPIN(attemptsLeft: Int)
    case lockedOut(until: Date)
    case unknownOperator(OperatorID)
    /// Offline sign-in needs one earlier online sign-in on this terminal.
    case neverSeenOnline(OperatorID)
    case operatorDisabled(OperatorID)
    case malformedPIN
    /// The terminal could not check the PIN (e.g. its database failed).
    case unavailable(String)

    public var description: String {
        switch self {
        case .wrongPIN(let left): left == 1 ? "Wrong PIN. 1 attempt left." : "Wrong PIN. \(left) attempts left."
        case .lockedOut: "Too many wrong PINs. Sign-in is locked for now."
        case .unknownOperator(let id): "Operator \(id) is not known to the bank."
        case .neverSeenOnline(let id): "Operator \(id) has never signed in online on this terminal, so cannot sign in offline."
        case .operatorDisabled(let id): "Operator \(id) is disabled at the bank."
        case .malformedPIN: "A PIN is 4 to 8 digits."
        case .unavailable(let reason): "Sign-in is unavailable: \(reason)"
        }
    }
}
