import Foundation
import TellerCore

/// The outbox as the sync engine works it: oldest queued row first, and
/// one state change per answer from the host.
extension TellerStore {
    /// The queued row with the lowest id and its frozen body, or nil when nothing is queued.
    func nextToSend() throws(TellerError) -> (entry: OutboxEntry, payload: [UInt8])? {
        try translating {
            try database.queryFirst("SELECT \(OutboxColumns.list), payload FROM outbox WHERE state = 'queued' ORDER BY id LIMIT 1") {
                (row: Statement) throws(SQLiteError) -> (entry: OutboxEntry, payload: [UInt8]) in
                (try OutboxColumns.entry(row), row.blob(16))
            }
        }
    }

    /// Not fsync'd: a crash sends the row back to `queued` on the next open
    /// whatever is on disk, so only the outcome's commit needs to wait for
    /// the disk (and it persists this one too, WAL being in order).
    func markSending(_ id: Int64) throws(TellerError) {
        try translating {
            try database.withoutFsync { try setState(id, "sending", from: ["queued"]) }
        }
    }

    func markConfirmed(_ id: Int64, reference: String) throws(TellerError) {
        try setState(id, "confirmed", from: ["sending", "queued"], extra: "host_reference = ?, last_error = NULL", [.text(reference)])
    }

    func markRejected(_ id: Int64, reason: String, detail: String) throws(TellerError) {
        try setState(id, "rejected", from: ["sending", "queued"], extra: "reason = ?, last_error = ?", [.text(reason), .text(detail)])
    }

    func markNeedsReview(_ id: Int64, reason: String) throws(TellerError) {
        try setState(id, "needsReview", from: ["sending", "queued"], extra: "reason = ?", [.text(reason)])
    }

    /// Puts the row back in the queue with its next attempt time; it keeps
    /// its place, so rows behind it wait (the host journals in queue order).
    func scheduleRetry(_ id: Int64, at next: Date, error: String) throws(TellerError) {
        try setState(id, "queued", from: ["sending", "queued"], extra: "attempts = attempts + 1, next_attempt_at_ms = ?, last_error = ?",
                     [.integer(next.millisecondsSince1970), .text(error)])
    }

    private func setState(_ id: Int64, _ state: String, from: [String], extra: String? = nil, _ values: [SQLValue] = []) throws(TellerError) {
        try translating {
            let allowed = from.map { "'\($0)'" }.joined(separator: ", ")
            let assignments = ["state = ?", "updated_at_ms = ?"] + (extra.map { [$0] } ?? [])
            try database.run("UPDATE outbox SET \(assignments.joined(separator: ", ")) WHERE id = ? AND state IN (\(allowed))",
                             [.text(state), .integer(clock.now().millisecondsSince1970)] + values + [.integer(id)])
            guard database.changes == 1 else {
                throw TellerError.storage("\(path): outbox row \(id) cannot move to \(state) (not in \(from.joined(separator: "/")))")
            }
        }
    }

    /// Registers a callback run after every committed enqueue (the sync engine's wake-up).
    public func onEnqueue(_ observer: @escaping @Sendable (OutboxEntry) -> Void) {
        enqueueObservers.append(observer)
    }
}
