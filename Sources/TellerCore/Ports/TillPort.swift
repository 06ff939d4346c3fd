import FoundationEssentials

/// The operator's cash drawer session (docs/architecture.md, "Till"): opened
/// with a counted float, moved by every cash deposit and withdrawal, closed
/// with a count. Each opening and closing is journaled and queued for the
/// bank as its own idempotent record, in the transaction that makes it.
public protocol TillPort: Sendable {
    /// The notes and coins a till of this terminal is counted in.
    var denominations: DenominationTable { get }
    /// How far a closing count may be from the position without a supervisor.
    var tolerance: Money { get }
    /// The operator's open till with its cash position, or nil.
    func openTill(of operatorID: OperatorID) async throws(TellerError) -> TillSession?
    /// Opens the operator's till with the counted float.
    /// - Throws: ``TillRefusal/alreadyOpen`` as ``TellerError/till(_:)``.
    func open(by operatorID: OperatorID, count: TillCount) async throws(TellerError) -> TillSession
    /// Closes the operator's till with the count. Beyond the tolerance it
    /// needs `approvedBy`, a supervisor other than the operator whose PIN
    /// was checked (``OperatorSessionPort/approve(_:pin:for:)``).
    /// - Throws: ``TillRefusal/needsApproval(overShort:tolerance:)`` without one.
    func close(by operatorID: OperatorID, count: TillCount, approvedBy: OperatorID?) async throws(TellerError) -> TillSession
    /// A till, open or closed, by its id (for its report).
    func till(_ id: Int64) async throws(TellerError) -> TillSession?
}
