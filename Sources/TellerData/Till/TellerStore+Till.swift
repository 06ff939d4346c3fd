import FoundationEssentials
import TellerCore
import SQLite

/// The till's port (``TillStore`` keeps it; docs/architecture.md, "Till"):
/// one cash drawer session per operator on this terminal. Opening and
/// closing each commit, in one transaction, the till's row, its journal
/// entry and its event for the bank (`till_events`, drained after the
/// payments). Cash payments carry the open till's id (`outbox.till_id`).
extension TellerStore: TillPort {
    public nonisolated var denominations: DenominationTable { tillSettings.denominations }
    public nonisolated var tolerance: Money { tillSettings.tolerance }

    public func openTill(of operatorID: OperatorID) throws(TellerError) -> TillSession? {
        try translating {
            guard let id = try tills.openTillID(of: operatorID) else { return nil }
            return try tills.session(id)
        }
    }

    public func till(_ id: Int64) throws(TellerError) -> TillSession? {
        try translating { try tills.session(id) }
    }

    public func open(by operatorID: OperatorID, count: TillCount) throws(TellerError) -> TillSession {
        try tills.checked(count)
        defer { for observer in tillEventObservers { observer() } }
        return try translating {
            try database.inTransaction(.immediate) {
                let (till, key, now) = try tills.open(by: operatorID, count: count)
                try appendJournal(.tillOpened(till, event: key), at: now)
                return till
            }
        }
    }

    public func close(by operatorID: OperatorID, count: TillCount, approvedBy: OperatorID?) throws(TellerError) -> TillSession {
        try tills.checked(count)
        if approvedBy == operatorID { throw .approval(.ownTransaction) }
        defer { for observer in tillEventObservers { observer() } }
        return try translating {
            try database.inTransaction(.immediate) {
                let (till, key, now) = try tills.close(by: operatorID, count: count, approvedBy: approvedBy)
                if let supervisor = till.closing?.approvedBy { try appendJournal(.approval(ofClosing: till, by: supervisor), at: now) }
                try appendJournal(.tillClosed(till, event: key), at: now)
                return till
            }
        }
    }
}
