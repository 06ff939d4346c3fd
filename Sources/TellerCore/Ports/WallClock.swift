import FoundationEssentials

/// The time of day, injected so rules about "today" and "age" are testable.
///
/// A clock also stamps what is committed: the time, and whether it can be
/// trusted. A plain clock always can; TellerData's `TrustedClock`, which
/// keeps a floor of time known to have passed, says when it cannot ("Clock
/// not set") and learns from each committed row.
public protocol WallClock: Sendable {
    func now() -> Date
    /// ``now()`` and whether it can be trusted, from one reading.
    func stamp() -> (date: Date, isVerified: Bool)
    /// A row was committed at `date` (as stamped by this clock).
    func committed(at date: Date)
}

extension WallClock {
    public func stamp() -> (date: Date, isVerified: Bool) { (now(), true) }
    public func committed(at date: Date) {}
    /// False when the clock cannot be trusted: "Clock not set".
    public var isVerified: Bool { stamp().isVerified }
}

/// The system clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
