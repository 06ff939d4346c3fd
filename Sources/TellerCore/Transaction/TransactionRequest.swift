/// A transaction as the operator confirmed it, before it is queued.
public struct TransactionRequest: Hashable, Sendable {
    public let kind: TransactionKind
    public let account: IBAN
    /// The recipient of a transfer; nil for deposits and withdrawals.
    public let counterparty: IBAN?
    public let amount: Money
    public let operatorID: OperatorID
    /// The supervisor who approved it over a counter limit
    /// (``LimitViolation/isOverridable``); never the operator.
    public let approvedBy: OperatorID?

    /// - Throws: ``TransactionRuleError`` when the fields do not fit the kind,
    ///   or the operator approves their own payment.
    public init(kind: TransactionKind, account: IBAN, counterparty: IBAN? = nil, amount: Money, operatorID: OperatorID,
                approvedBy: OperatorID? = nil) throws(TransactionRuleError) {
        guard amount.minorUnits > 0 else { throw .amountNotPositive }
        guard approvedBy != operatorID else { throw .approvedByOperator }
        switch kind {
        case .transfer:
            guard let counterparty else { throw .missingRecipient }
            guard counterparty != account else { throw .recipientIsSameAccount }
        case .deposit, .withdrawal:
            guard counterparty == nil else { throw .unexpectedRecipient(kind) }
        }
        self.kind = kind
        self.account = account
        self.counterparty = counterparty
        self.amount = amount
        self.operatorID = operatorID
        self.approvedBy = approvedBy
    }

    /// The same payment, approved by `supervisor`.
    public func approved(by supervisor: OperatorID) throws(TransactionRuleError) -> TransactionRequest {
        try TransactionRequest(kind: kind, account: account, counterparty: counterparty, amount: amount, operatorID: operatorID, approvedBy: supervisor)
    }
}

/// Why a transaction's fields do not make sense together.
public enum TransactionRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    case amountNotPositive
    case missingRecipient
    case recipientIsSameAccount
    case unexpectedRecipient(TransactionKind)
    case approvedByOperator

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .amountNotPositive: "The amount must be more than zero."
        case .missingRecipient: "A transfer needs a recipient IBAN."
        case .recipientIsSameAccount: "The recipient must be a different account."
        case .unexpectedRecipient(let kind): "A \(kind.rawValue) has no recipient."
        case .approvedByOperator: "Nobody can approve their own transaction. Another supervisor must sign."
        }
    }
}
