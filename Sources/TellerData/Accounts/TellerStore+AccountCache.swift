import TellerCore

extension TellerStore {
    /// Replaces the cached snapshot of one account (the read path's second paint).
    public func saveSnapshot(_ snapshot: AccountSnapshot) throws(TellerError) {
        try translating { try accounts.save(snapshot) }
    }

    /// The last stored snapshot of an account, or nil if this terminal never saw it.
    public func cachedSnapshot(for iban: IBAN) throws(TellerError) -> AccountSnapshot? {
        try translating { try accounts.snapshot(for: iban) }
    }
}
