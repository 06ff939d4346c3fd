import FoundationEssentials

/// How current loaded data is.
public enum Freshness: Hashable, Sendable {
    /// From the terminal's cache; the host said this at `asOf`.
    case cached(asOf: Date)
    /// Just received from the host.
    case fresh
}

/// The state of something a screen loads: the read path paints twice,
/// first `.loaded(value, .cached(asOf:))`, then `.loaded(value, .fresh)`.
public enum LoadState<Value> {
    case idle
    case loading
    case loaded(Value, Freshness)
    case failed(TellerError)

    public var value: Value? {
        if case .loaded(let value, _) = self { return value }
        return nil
    }
}

extension LoadState: Sendable where Value: Sendable {}
extension LoadState: Equatable where Value: Equatable {}
