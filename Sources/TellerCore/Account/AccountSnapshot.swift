import FoundationEssentials

/// What the host last said about an account, as of a moment in time.
public struct AccountSnapshot: Hashable, Sendable {
    public let iban: IBAN
    public let holder: String
    /// The booked balance.
    public let balance: Money
    /// What the customer may withdraw now (balance minus holds plus overdraft).
    public let available: Money
    /// When the host produced these figures.
    public let asOf: Date
    /// Recent host-side activity, newest first.
    public let recent: [ActivityItem]

    public init(iban: IBAN, holder: String, balance: Money, available: Money, asOf: Date, recent: [ActivityItem] = []) {
        self.iban = iban
        self.holder = holder
        self.balance = balance
        self.available = available
        self.asOf = asOf
        self.recent = recent
    }

    public var currency: Currency { balance.currency }
}

/// One line of an account's activity.
public struct ActivityItem: Hashable, Sendable {
    public let reference: String
    public let kind: TransactionKind
    /// Signed: negative for money leaving the account.
    public let amount: Money
    public let bookedAt: Date
    public let description: String

    public init(reference: String, kind: TransactionKind, amount: Money, bookedAt: Date, description: String) {
        self.reference = reference
        self.kind = kind
        self.amount = amount
        self.bookedAt = bookedAt
        self.description = description
    }
}
