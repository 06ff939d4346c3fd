/// What the operator is doing for the customer.
public enum TransactionKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Cash in: credits the account.
    case deposit
    /// Cash out: debits the account.
    case withdrawal
    /// Account to account: debits the account, credits the counterparty.
    case transfer

    /// True when the transaction takes money out of the customer's account.
    public var isDebit: Bool { self != .deposit }
}
