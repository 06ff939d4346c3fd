import FoundationEssentials

/// What the store asks before it applies the online limits: whether the
/// bank has shown it answers. Connectivity is evidence, not belief (see
/// ``HostReachability``), so the store judges nothing itself; it asks this
/// port, and tests hand it a fake.
public protocol OnlineEvidence: Sendable {
    /// Whether the online limits may apply now: the bank answered recently
    /// and no request has failed since.
    func bankAnsweredRecently() -> Bool
    /// Whether no request has failed since the bank last answered (the
    /// status bar's "Online"): worth a proof when the evidence is stale.
    func believedOnline() -> Bool
    /// Asks the bank now (one health request); true only if it answered.
    func proveOnline() async -> Bool
}

/// A terminal without a host: the online limits never apply.
public struct NoHost: OnlineEvidence {
    public init() {}
    public func bankAnsweredRecently() -> Bool { false }
    public func believedOnline() -> Bool { false }
    public func proveOnline() async -> Bool { false }
}

/// The bank's own answers, as the host connection's ``HostReachability``
/// records them: online only while the bank answered within the request
/// timeout, and proved by one health request.
public struct HostAnswers: OnlineEvidence {
    let host: HostClient
    /// How recent the bank's last answer must be (the request timeout).
    let window: TimeInterval

    /// - Parameters:
    ///   - host: the client whose connection's answers count.
    ///   - window: how recent an answer must be, in seconds.
    public init(host: HostClient, within window: TimeInterval) {
        self.host = host
        self.window = window
    }

    public func bankAnsweredRecently() -> Bool { host.connection.reachability.bankAnswered(within: window) }
    public func believedOnline() -> Bool { host.connection.reachability.isOnline }
    public func proveOnline() async -> Bool { (try? await host.health()) == true }
}
