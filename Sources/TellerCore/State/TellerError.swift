import FoundationEssentials

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

    public var description: String {
        switch self {
        case .offline: tr("The bank's host cannot be reached.")
        case .accountNotFound(let iban): tr("No account {iban}.", ["iban": Localization.leftToRight(iban.grouped)])
        case .limit(let violation): violation.description
        case .rule(let error): error.description
        case .money(let error): error.description
        case .signIn(let error): error.description
        case .noSuchEntry(let key): tr("No queued transaction {key}.", ["key": Localization.leftToRight("\(key)")])
        case .voidRefused(let refusal): refusal.description
        case .reversalRefused(let refusal): refusal.description
        case .till(let refusal): refusal.description
        case .approval(let refusal): refusal.description
        case .storage(let failure): failure.operatorText
        case .host(let message): tr("Host: {message}", ["message": Localization.verbatim(message)])
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

    public var description: String {
        switch self {
        case .wrongPIN(let left): trn("Wrong PIN. {count} attempt left.", "Wrong PIN. {count} attempts left.", count: left)
        case .lockedOut: tr("Too many wrong PINs. Sign-in is locked for now.")
        case .unknownOperator(let id): tr("Operator {id} is not known to the bank.", ["id": Localization.leftToRight("\(id)")])
        case .neverSeenOnline(let id): tr("Operator {id} has never signed in online on this terminal, so cannot sign in offline.", ["id": Localization.leftToRight("\(id)")])
        case .operatorDisabled(let id): tr("Operator {id} is disabled at the bank.", ["id": Localization.leftToRight("\(id)")])
        case .malformedPIN: tr("A PIN is 4 to 8 digits.")
        case .unavailable(let cause): tr("Sign-in is unavailable: {reason}", ["reason": cause.description])
        }
    }
}

/// What went wrong with the terminal's own storage, by what the operator
/// can do about it, with the technician's detail kept apart.
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

    /// What the operator reads: what happened, that no money moved, and what to do.
    public var operatorText: String {
        switch kind {
        case .full: tr("Not saved: this terminal's storage is full. Nothing was charged. Call a technician.")
        case .readOnly: tr("Not saved: this terminal's storage has become read-only. Nothing was charged. Call a technician.")
        case .failing: tr("Not saved: this terminal's storage is failing. Nothing was charged. Call a technician.")
        case .other: tr("Not saved: this terminal's storage reported a problem. Nothing was charged. Call a technician.")
        }
    }
}

extension TellerError {
    /// A storage failure with no better class than its technical detail.
    public static func storage(detail: String) -> TellerError { .storage(StorageFailure(kind: .other, detail: detail)) }
}
