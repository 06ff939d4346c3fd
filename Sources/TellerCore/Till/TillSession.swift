import FoundationEssentials

/// One cash drawer session: an operator's till on this terminal, from the
/// counted float at opening to the count at closing.
public struct TillSession: Hashable, Sendable {
    public let id: Int64
    public let operatorID: OperatorID
    public let openedAt: Date
    public let opening: TillCount
    /// Cash taken in by deposits (not voided) since it opened.
    public var cashIn: Money
    /// Cash paid out by withdrawals (not voided) since it opened.
    public var cashOut: Money
    /// How many cash payments moved it.
    public var cashPayments: Int
    /// Its cash payments voided on this terminal, oldest first: they never
    /// moved the drawer's position (the cash went back over the counter).
    public var voided: [OutboxEntry]
    /// Its cash payments the bank refused, or a person must settle with the
    /// bank (rejected or under review), oldest first. Their cash stays in
    /// the position: it is in the drawer (or out of it) until someone
    /// settles it, so counting the drawer does not call it over or short
    /// (docs/architecture.md, "Till").
    public var toSettle: [OutboxEntry]
    /// Set once it is closed.
    public var closing: Closing?

    public struct Closing: Hashable, Sendable {
        public let closedAt: Date
        public let counted: TillCount
        /// The cash position when it closed.
        public let expected: Money
        /// The supervisor who approved a difference beyond the tolerance.
        public let approvedBy: OperatorID?

        public init(closedAt: Date, counted: TillCount, expected: Money, approvedBy: OperatorID?) {
            self.closedAt = closedAt
            self.counted = counted
            self.expected = expected
            self.approvedBy = approvedBy
        }

        /// Counted minus expected: positive over, negative short.
        public var overShort: Money { Money(minorUnits: counted.total.minorUnits - expected.minorUnits, currency: expected.currency) }
    }

    public init(id: Int64, operatorID: OperatorID, openedAt: Date, opening: TillCount, cashIn: Money, cashOut: Money, cashPayments: Int,
                voided: [OutboxEntry] = [], toSettle: [OutboxEntry] = [], closing: Closing? = nil) {
        self.id = id
        self.operatorID = operatorID
        self.openedAt = openedAt
        self.opening = opening
        self.cashIn = cashIn
        self.cashOut = cashOut
        self.cashPayments = cashPayments
        self.voided = voided
        self.toSettle = toSettle
        self.closing = closing
    }

    public var currency: Currency { opening.currency }
    public var isOpen: Bool { closing == nil }

    /// The cash the drawer should hold: the float, plus deposits, minus
    /// withdrawals (not voided; those to settle included).
    public var position: Money {
        Money(minorUnits: opening.total.minorUnits + cashIn.minorUnits - cashOut.minorUnits, currency: currency)
    }
}

/// Why a till action was refused.
public enum TillRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operator already has a till open on this terminal.
    case alreadyOpen
    /// The operator has no till open.
    case notOpen
    /// A count that cannot be right (a negative or absurd number of pieces, a foreign denomination).
    case badCount(String)
    /// This terminal never opened a till with that number.
    case noSuchTill(Int64)
    /// The count differs from the position by more than the tolerance: a supervisor must approve.
    case needsApproval(overShort: Money, tolerance: Money)

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .alreadyOpen: "Your till is already open."
        case .notOpen: "You have no till open."
        case .badCount(let detail): "The count cannot be taken: \(detail)"
        case .noSuchTill(let id): "There is no till \(id) on this terminal."
        case .needsApproval(let overShort, let tolerance):
            "The count is \(overShort) off, more than the \(tolerance) allowed: a supervisor must approve."
        }
    }
}

/// Why a supervisor's approval was not taken.
public enum ApprovalRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nobody approves their own transaction or close.
    case ownTransaction
    /// The staff number is not among this terminal's supervisors.
    case notSupervisor(OperatorID)
    /// The limit protects the bank and is never overridden (``LimitViolation/isOverridable``).
    case notOverridable(LimitViolation)
    /// The supervisor's PIN was not accepted.
    case signIn(SignInError)

    /// What refuses `supervisorID` as the approver of what `operatorID`
    /// asks before any PIN is typed: their own number, or a number that is
    /// not among `supervisors`. Nil when only the PIN is left to check.
    public static func beforePIN(_ supervisorID: OperatorID, for operatorID: OperatorID, supervisors: Set<OperatorID>) -> ApprovalRefusal? {
        if supervisorID == operatorID { return .ownTransaction }
        if !supervisors.contains(supervisorID) { return .notSupervisor(supervisorID) }
        return nil
    }

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .ownTransaction: "Nobody can approve their own transaction. Another supervisor must sign."
        case .notSupervisor(let id): "Operator \(id) is not a supervisor on this terminal."
        case .notOverridable(let violation): "No supervisor can override this limit: \(violation)"
        case .signIn(let error): error.description
        }
    }
}

/// How a terminal's tills are counted: the notes and coins, and how far a
/// closing count may be off before a supervisor must approve it.
public struct TillSettings: Hashable, Sendable {
    public let denominations: DenominationTable
    /// Over or short by at most this much closes without a supervisor; 0: any difference needs one.
    public let tolerance: Money

    public init(denominations: DenominationTable, tolerance: Money) {
        self.denominations = denominations
        self.tolerance = tolerance
    }

    /// The built-in table of `currency` and no tolerance; a currency without
    /// a table is counted in its minor unit alone (check-config refuses that
    /// unless `till_denominations` lists its notes and coins).
    public static func standard(for currency: Currency) -> TillSettings {
        let table = DenominationTable.standard(for: currency) ?? (try! DenominationTable(currency: currency, denominations: [1]))
        return TillSettings(denominations: table, tolerance: .zero(currency))
    }
}
