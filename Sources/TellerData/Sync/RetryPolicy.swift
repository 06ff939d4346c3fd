import FoundationEssentials

/// When the sync engine tries a row again.
public struct RetryPolicy: Sendable {
    /// The first backoff ceiling; it doubles with each failed attempt.
    public var base: TimeInterval
    /// The largest backoff ceiling.
    public var cap: TimeInterval
    /// The longest `Retry-After` the engine will honour.
    public var retryAfterCap: TimeInterval
    /// A row not final this long after it was queued goes to needs-review
    /// (docs/host-api.md §7: 14 days, inside the host's 30-day key retention).
    public var horizon: TimeInterval
    /// How often an idle engine checks the host and the queue anyway.
    public var idleInterval: TimeInterval

    public init(base: TimeInterval = 1, cap: TimeInterval = 60, retryAfterCap: TimeInterval = 300, horizon: TimeInterval = 14 * 86_400, idleInterval: TimeInterval = 30) {
        self.base = base
        self.cap = cap
        self.retryAfterCap = retryAfterCap
        self.horizon = horizon
        self.idleInterval = idleInterval
    }

    /// Exponential backoff with full jitter: uniform in 0 ... min(cap, base * 2^(attempt-1)).
    public func backoff(attempt: Int, using random: inout some RandomNumberGenerator) -> TimeInterval {
        let doublings = min(max(attempt - 1, 0), 30)
        let ceiling = min(cap, base * Double(1 << doublings))
        return Double.random(in: 0...ceiling, using: &random)
    }

    /// The delay after an answer that carried `Retry-After`: at least what
    /// the host asked for, at most ``retryAfterCap``.
    public func delay(retryAfter: TimeInterval?, attempt: Int, using random: inout some RandomNumberGenerator) -> TimeInterval {
        if let retryAfter { return min(max(retryAfter, 0), retryAfterCap) }
        return backoff(attempt: attempt, using: &random)
    }
}
