import FoundationEssentials

/// The time of day, injected so rules about "today" and "age" are testable.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The system clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
