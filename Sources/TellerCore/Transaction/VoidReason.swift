/// Why an operator voids a queued payment: a fixed list, so the journal and
/// the bank's audit can count them. The raw values are the stored words.
public enum VoidReason: String, Hashable, Sendable, CaseIterable {
    case wrongAmount = "wrong_amount"
    case wrongAccount = "wrong_account"
    case customerCancelled = "customer_cancelled"
    case duplicate = "duplicate"
}

/// Why a payment cannot be voided.
public enum VoidRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// It is on its way to the bank (its request may already have arrived).
    case sending
    /// The terminal is still trying to reach the bank with it: nothing has
    /// left yet, and once that attempt ends a void may be taken. Asking
    /// again in a moment can succeed.
    case stillConnecting
    /// An earlier attempt left the terminal without a final answer: the bank
    /// may have posted it. Its answer will come; if posted, a reversal undoes it.
    case sentBefore
    /// The bank posted it: only a reversal (``OutboxPort/reverse(_:by:)``) can undo it.
    case alreadySent(reference: String)
    /// The bank refused it: no money moved, nothing to void.
    case rejected
    /// A person must settle it with the bank first.
    case needsReview
    /// It was voided before.
    case alreadyVoided

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .sending: "This payment is being sent to the bank and can no longer be voided."
        case .stillConnecting: "The terminal is still trying to reach the bank with this payment. Nothing has been sent yet: try Void again in a moment."
        case .sentBefore: "This payment has already been sent to the bank once and may have been posted, so it can no longer be voided. Wait for the bank's answer."
        case .alreadySent(let reference): "The bank has already posted this payment (\(reference)). It cannot be voided; a reversal can undo it."
        case .rejected: "The bank rejected this payment; no money moved, so there is nothing to void."
        case .needsReview: "This payment needs review and cannot be voided until it is settled with the bank."
        case .alreadyVoided: "This payment has already been voided."
        }
    }
}

/// Why a payment cannot be reversed.
public enum ReversalRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Only a payment the bank posted can be reversed; this one is in `state`.
    case notPosted(OutboxState.Kind)
    /// Another payment already reverses it.
    case alreadyReversed(by: IdempotencyKey)
    /// A reversal is not itself reversed: enter a new payment instead.
    case isReversal

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .notPosted(.queued): "This payment has not been sent yet: void it instead."
        case .notPosted(let state): "Only a payment the bank has posted can be reversed; this one is \(state)."
        case .alreadyReversed(let key): "This payment has already been reversed (receipt \(key.receiptNumber))."
        case .isReversal: "A reversal cannot itself be reversed; enter a new payment instead."
        }
    }
}
