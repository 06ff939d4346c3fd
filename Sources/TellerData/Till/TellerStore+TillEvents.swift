import FoundationEssentials
import TellerCore

/// The till events as the sync engine works them (docs/host-api.md §11;
/// ``TillStore`` keeps them): queued when the till opens or closes, sent
/// after the payments, oldest first, and each moved once to `confirmed`
/// with the bank's reference or to `rejected` with its reason.
///
/// Their state changes skip fsync, as a payment's outcome does: the host
/// keeps each record under its key and replays it, so a change a power
/// cut takes back costs a resend, not a second record.
extension TellerStore {
    /// The oldest queued till event when it is due now, or nil. One that
    /// waits out a retry keeps its place, so the bank meets a till's
    /// opening before its closing, as it meets payments in queue order.
    func nextTillEventToSend() throws(TellerError) -> QueuedTillEvent? {
        try translating { try tills.nextEventToSend() }
    }

    /// When the oldest queued till event is due, or nil when none is queued.
    func nextTillEventAt() throws(TellerError) -> Date? {
        try translating { try tills.nextEventAt() }
    }

    /// The bank recorded the event: confirmed with its reference.
    func recordTillEvent(_ id: Int64, reference: String) throws(TellerError) {
        try translating { try tills.recordEvent(id, reference: reference) }
    }

    /// The bank refused the event for good (a 4xx that retrying cannot change).
    func rejectTillEvent(_ id: Int64, reason: String) throws(TellerError) {
        try translating { try tills.rejectEvent(id, reason: reason) }
    }

    /// The attempt failed in a way a later one may not: queued again, due at `next`.
    func scheduleTillEventRetry(_ id: Int64, at next: Date, error: String) throws(TellerError) {
        try translating { try tills.scheduleEventRetry(id, at: next, error: error) }
    }

    /// Till events not yet at the bank.
    func queuedTillEventCount() throws(TellerError) -> Int {
        try translating { try tills.queuedEventCount() }
    }
}
