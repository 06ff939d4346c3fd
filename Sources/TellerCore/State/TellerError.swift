import FoundationEssentials

/// The errors the ports report to the features, already translated from
/// SQLite, HTTP and the file system at the data layer's border.
///
/// The `description` of this and every other TellerCore error is English
/// for developers and technicians: logs, `teller status`, tests. What the
/// operator reads comes from the catalog, one function per error type in
/// TellerFeatures (`ErrorText`, `LimitText`).
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
    /// The payment cannot be voided; the reason says why (and whether a reversal can undo it).
    case voidRefused(VoidRefusal)
    /// The payment cannot be reversed.
    case reversalRefused(ReversalRefusal)
    /// The till cannot do that now; the refusal says why.
    case till(TillRefusal)
    /// A supervisor's approval was not taken.
    case approval(ApprovalRefusal)
    /// The local database failed. The operator reads what happened in plain
    /// words; the technical detail (file, SQLite code, SQL) is for the log.
    case storage(StorageFailure)
    /// The host answered with something the terminal cannot use.
    case host(String)

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .offline: "The bank's host cannot be reached."
        case .accountNotFound(let iban): "No account \(iban.grouped)."
        case .limit(let violation): violation.description
        case .rule(let error): error.description
        case .money(let error): error.description
        case .signIn(let error): error.description
        case .noSuchEntry(let key): "No queued transaction \(key)."
        case .voidRefused(let refusal): refusal.description
        case .reversalRefused(let refusal): refusal.description
        case .till(let refusal): refusal.description
        case .approval(let refusal): refusal.description
        case .storage(let failure): "Storage \(failure.kind.rawValue): \(failure.detail)"
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
    /// The terminal could not check the PIN: its database failed. The cause
    /// is typed, so the operator reads its words and the log its detail.
    indirect case unavailable(TellerError)

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .wrongPIN(let left): left == 1 ? "Wrong PIN. 1 attempt left." : "Wrong PIN. \(left) attempts left."
        case .lockedOut(let until): "Too many wrong PINs. Sign-in is locked until \(until)."
        case .unknownOperator(let id): "Operator \(id) is not known to the bank."
        case .neverSeenOnline(let id): "Operator \(id) has never signed in online on this terminal, so cannot sign in offline."
        case .operatorDisabled(let id): "Operator \(id) is disabled at the bank."
        case .malformedPIN: "A PIN is 4 to 8 digits."
        case .unavailable(let cause): "Sign-in is unavailable: \(cause)"
        }
    }
}

/// What went wrong with the terminal's own storage, by what the operator
/// can do about it, with the technician's detail kept apart. The operator's
/// words are TellerFeatures' `ErrorText.text(_:)`.
public struct StorageFailure: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// No space left on the data disk.
        case full
        /// The data disk turned read-only (e.g. remounted after an I/O error).
        case readOnly
        /// Reads or writes fail (I/O errors, a device going away).
        case failing
        /// Anything else, including a damaged or unexpected database.
        case other
    }

    public var kind: Kind
    /// The file, the SQLite code and message, the SQL: for the log and diagnostics.
    public var detail: String

    public init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

}

extension TellerError {
    /// A storage failure with no better class than its technical detail.
    public static func storage(detail: String) -> TellerError { .storage(StorageFailure(kind: .other, detail: detail)) }
}
