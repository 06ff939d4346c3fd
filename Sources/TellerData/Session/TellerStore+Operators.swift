import FoundationEssentials
import TellerCore
import SQLite

extension TellerStore {
    func operatorRecord(_ id: OperatorID) throws(TellerError) -> OperatorRecord? {
        try translating { try operators.record(id) }
    }

    /// Stores the verifier of a PIN the host just accepted, clears failures
    /// and journals the sign-in (unless it was a supervisor's approval), in one transaction.
    func recordOnlineSignIn(_ signedIn: Operator, verifier: String, journaling: Bool = true) throws(TellerError) {
        try translating {
            try database.inTransaction(.immediate) {
                try operators.storeVerifier(verifier, of: signedIn, at: clock.now())
                if journaling { try appendJournal(.signIn(signedIn.id, mode: .online), at: clock.now()) }
            }
        }
    }

    /// Clears the failures of an operator the stored verifier just let in
    /// and journals the sign-in (unless it was a supervisor's approval), in one transaction.
    func recordOfflineSignIn(_ id: OperatorID, journaling: Bool = true) throws(TellerError) {
        try translating {
            try database.inTransaction(.immediate) {
                try operators.clearFailedAttempts(id)
                if journaling { try appendJournal(.signIn(id, mode: .offline), at: clock.now()) }
            }
        }
    }

    func clearFailedAttempts(_ id: OperatorID) throws(TellerError) {
        try translating { try operators.clearFailedAttempts(id) }
    }

    /// Counts one wrong PIN; at `maximum` failures the operator is locked
    /// out until `lockout` has passed. Survives restarts.
    /// - Returns: attempts left, and the lockout end when this failure locked.
    func recordFailedAttempt(_ id: OperatorID, maximum: Int, lockout: TimeInterval) throws(TellerError) -> (attemptsLeft: Int, lockedUntil: Date?) {
        try translating { try operators.recordFailedAttempt(id, maximum: maximum, lockout: lockout, at: clock.now()) }
    }

    /// Locks the operator out until `until` (e.g. the host's 429 Retry-After).
    func lockOut(_ id: OperatorID, until: Date) throws(TellerError) {
        try translating { try operators.lockOut(id, until: until) }
    }
}
