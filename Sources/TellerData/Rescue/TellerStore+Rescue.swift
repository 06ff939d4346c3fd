import FoundationEssentials

extension TellerStore {
    /// What a rescue file carries of this store, read in one transaction so
    /// that the payments, the till events and the journal agree.
    func rescueContents() throws -> (payments: [RescueDocument.Payment], tillEvents: [RescueDocument.TillEvent],
                                     journalScope: RescueDocument.JournalScope, journal: [RescueDocument.JournalLine]) {
        try database.inTransaction(.deferred) {
            let scope = try journalScopeForRescue()
            return (try outbox.unacknowledged(), try tills.unrecordedEvents(), scope, try journal.lines(after: scope.afterSequence))
        }
    }

    /// Which journal entries a rescue carries: those the bank has not had
    /// in an export. This schema (version 5) keeps no record of journal
    /// exports, so it is the whole journal the card holds; once the store
    /// records exports, this is the one place that starts after the last.
    func journalScopeForRescue() throws -> RescueDocument.JournalScope {
        RescueDocument.JournalScope(since: "whole_journal", afterSequence: 0)
    }
}
