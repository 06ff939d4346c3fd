/// What one entry of the electronic journal records. The raw values are the
/// words the journal's `kind` column stores and `teller journal export`
/// writes; they are spelled out so that renaming a case cannot change what
/// existing journals hold (and so their hashes).
public enum JournalKind: String, Hashable, Sendable, CaseIterable {
    /// An operator signed in (online or offline).
    case signIn = "sign_in"
    /// An operator signed out.
    case signOut = "sign_out"
    /// A cash drawer session began with a counted float.
    case tillOpened = "till_opened"
    /// A cash drawer session ended with a count.
    case tillClosed = "till_closed"
    /// A payment was committed to the outbox (the receipt says Queued).
    case paymentEnqueued = "payment_enqueued"
    /// The bank posted a payment.
    case paymentConfirmed = "payment_confirmed"
    /// The bank refused a payment for good.
    case paymentRejected = "payment_rejected"
    /// A queued payment was voided before it left the terminal.
    case void = "void"
    /// A payment that reverses one the bank had posted was committed to the outbox.
    case reversal = "reversal"
    /// A supervisor approved what a limit or a tolerance refused.
    case supervisorApproval = "supervisor_approval"
    /// A slip was printed (a receipt, a copy, a till report).
    case print = "print"
    /// Retention removed the oldest entries: this entry carries the chain
    /// over them (the sequence and hash of the last one removed, and how
    /// many of each kind it replaced), docs/architecture.md "Retention".
    case checkpoint = "checkpoint"
}
