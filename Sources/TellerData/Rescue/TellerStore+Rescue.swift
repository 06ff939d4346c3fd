import FoundationEssentials
import SQLite

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

    /// Which journal entries a rescue carries: every entry the card still
    /// holds. Retention removes only whole days whose every payment and
    /// till event the bank answered (docs/architecture.md, "Retention"),
    /// and `teller journal export` records nothing, so what is left is
    /// what the bank may not have; it is bounded by `retention_days`. Were
    /// exports ever recorded, this is the one place that would start after
    /// the last.
    func journalScopeForRescue() throws -> RescueDocument.JournalScope {
        RescueDocument.JournalScope(since: "whole_journal", afterSequence: 0)
    }
}
