/// Reads accounts for the account screen: the cache answers at once, the
/// host second (see "One read, two paints" in the design).
public protocol AccountReading: Sendable {
    /// The last snapshot this terminal stored, or nil if it never saw the account.
    func cachedSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot?
    /// Asks the host and replaces the cache.
    /// - Throws: ``TellerError/offline`` when the host is unreachable; the cache stays.
    func freshSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot
}
