import FoundationEssentials
import TellerCore
import HostTransport

/// Till openings and closings: sent one per pass once the payments ahead
/// of them have gone, under their own keys with their frozen bytes.
extension SyncEngine {
    /// Sends the oldest due till event, if any, and records what the bank
    /// said: recorded (confirmed), refused for good (a 4xx retrying cannot
    /// change: rejected, and logged), or anything else (retried later under
    /// the same key with the same bytes, with the payments' backoff, and
    /// the pass ends there as it does for a payment; a mismatched answer is
    /// never a confirmation). An enqueue still wakes the engine, so a
    /// waiting till event never holds a payment back.
    func sendNextTillEvent() async -> TillEventAttempt {
        let next: QueuedTillEvent?
        do { next = try await store.nextTillEventToSend() } catch { return .storeFailed }
        guard !Task.isCancelled, let event = next else { return .noneDue }
        // Each outcome's commit is awaited here, not through a closure: Swift 6.0 (the arm64 build)
        // refuses to send an actor-isolated closure to the store.
        do throws(HostError) {
            let outcome = try await host.submitTillEvent(event.payload, key: event.key)
            lastSyncAt = store.clock.now()
            do { try await store.recordTillEvent(event.id, reference: outcome.reference) } catch { return .storeFailed }
            return .attempted
        } catch {
            switch error {
            case .cancelled:
                return .noneDue
            case .badRequest, .keyReused, .forbidden, .notFound:
                onTillEventRejected(event.key, error.description)
                do { try await store.rejectTillEvent(event.id, reason: error.description) } catch { return .storeFailed }
                return .attempted
            default:
                let delay = policy.delay(retryAfter: error.retryAfter, attempt: event.attempts + 1, using: &random)
                let next = store.clock.now().addingTimeInterval(delay)
                do { try await store.scheduleTillEventRetry(event.id, at: next, error: error.description) } catch { return .storeFailed }
                return .wait(delay)
            }
        }
    }

    /// What ``sendNextTillEvent()`` did.
    enum TillEventAttempt: Equatable {
        /// None was due (or the engine is stopping): nothing was sent.
        case noneDue
        /// One was sent and what the bank said is recorded.
        case attempted
        /// One failed and waits this many seconds for its next attempt.
        case wait(TimeInterval)
        /// The store failed; the event stays queued as it was.
        case storeFailed
    }

    /// Seconds until the earliest queued till event is due, or nil when none is queued.
    func untilNextTillEvent() async -> TimeInterval? {
        guard let due = try? await store.nextTillEventAt() else { return nil }
        return max(due.timeIntervalSince(store.clock.now()), 0.001)
    }
}
