import FoundationEssentials
import HostTransport

/// What the sync engine does with an outbox row whose attempt failed: the
/// error classes of the drain, decided in one place from the host's error.
enum SyncFailure: Equatable {
    /// The terminal is stopping: the row goes back to the queue as it was.
    case stopping
    /// The request itself is wrong (a reused key, a malformed body):
    /// retrying cannot help, so a person looks at it.
    case needsReview
    /// The answer was for another request: never confirmed; a person looks
    /// at it while the engine asks again under the same key.
    case mismatch
    /// Worth another try after the backoff, or after the host's
    /// `Retry-After` when it gave one.
    case retry(after: TimeInterval?)

    init(_ error: HostError) {
        switch error {
        case .cancelled: self = .stopping
        case .keyReused, .badRequest: self = .needsReview
        case .mismatch: self = .mismatch
        default: self = .retry(after: error.retryAfter)
        }
    }
}

extension HostError {
    /// The wait the host asked for (`Retry-After`), when it asked for one.
    var retryAfter: TimeInterval? {
        switch self {
        case .retryable(_, _, let value), .inProgress(let value): value
        default: nil
        }
    }
}
