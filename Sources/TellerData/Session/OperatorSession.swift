import FoundationEssentials
import TellerCore
import Cryptography
import HostTransport

/// Signs operators in: the host verifies the PIN when it is reachable and
/// the terminal keeps an Argon2id verifier, so the same operator can sign
/// in offline later. Wrong PINs count towards a lockout stored in SQLite.
public struct OperatorSession: OperatorSessionPort {
    let store: TellerStore
    let host: HostClient?
    let hasher: PINHasher
    /// Wrong PINs in a row before the lockout.
    public let maximumAttempts: Int
    /// How long a lockout lasts.
    public let lockout: TimeInterval
    /// Who may approve what a counter limit or a till's tolerance refuses (the `supervisors` key).
    public let supervisors: Set<OperatorID>

    public init(store: TellerStore, host: HostClient?, hasher: PINHasher = .interactive, maximumAttempts: Int = 5, lockout: TimeInterval = 300,
                supervisors: Set<OperatorID> = []) {
        self.store = store
        self.host = host
        self.hasher = hasher
        self.maximumAttempts = maximumAttempts
        self.lockout = lockout
        self.supervisors = supervisors
    }

    public func signIn(_ id: OperatorID, pin: String) async throws(SignInError) -> (Operator, SignInMode) {
        try await verify(id, pin: pin, signingIn: true)
    }

    public func refusalBeforePIN(_ supervisorID: OperatorID, for operatorID: OperatorID) -> ApprovalRefusal? {
        ApprovalRefusal.beforePIN(supervisorID, for: operatorID, supervisors: supervisors)
    }

    public func knownOperator(_ id: OperatorID) async -> Operator? {
        // A row with no verifier was written by wrong PINs alone: its name is the number.
        guard let record = try? await store.operatorRecord(id), record.verifier != nil else { return nil }
        return Operator(id: id, displayName: record.displayName)
    }

    public func approve(_ supervisorID: OperatorID, pin: String, for operatorID: OperatorID) async throws(ApprovalRefusal) -> Operator {
        if let refusal = refusalBeforePIN(supervisorID, for: operatorID) { throw refusal }
        do throws(SignInError) {
            return try await verify(supervisorID, pin: pin, signingIn: false).0
        } catch {
            throw .signIn(error)
        }
    }

    /// Checks the PIN as a sign-in does and keeps the verifier; journals a
    /// sign-in only when `signingIn` (an approval is journaled with what it approves).
    private func verify(_ id: OperatorID, pin: String, signingIn: Bool) async throws(SignInError) -> (Operator, SignInMode) {
        guard (4...8).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .malformedPIN }
        let record = try await record(id)
        if let until = record?.lockedUntil, until > store.clock.now() { throw .lockedOut(until: until) }

        if let host {
            let verified: Operator
            do throws(HostError) {
                verified = try await host.verifyOperator(id, pin: pin)
            } catch {
                switch error {
                case .forbidden(let code, _) where code == "operator_disabled":
                    throw .operatorDisabled(id)
                case .forbidden:
                    throw try await failure(id)
                case .retryable(429, _, let retryAfter):
                    let until = store.clock.now().addingTimeInterval(retryAfter ?? lockout)
                    try await persist { () async throws(TellerError) in try await store.lockOut(id, until: until) }
                    throw .lockedOut(until: until)
                default:
                    // Unreachable or failing host: the offline verifier decides below.
                    return try await signInOffline(id, pin: pin, record: record, signingIn: signingIn)
                }
            }
            let verifier = try hash(pin)
            try await persist { () async throws(TellerError) in try await store.recordOnlineSignIn(verified, verifier: verifier, journaling: signingIn) }
            return (verified, .online)
        }
        return try await signInOffline(id, pin: pin, record: record, signingIn: signingIn)
    }

    private func signInOffline(_ id: OperatorID, pin: String, record: OperatorRecord?, signingIn: Bool) async throws(SignInError) -> (Operator, SignInMode) {
        guard let record, let verifier = record.verifier else { throw .neverSeenOnline(id) }
        guard hasher.matches(pin, verifier: verifier) else { throw try await failure(id) }
        try await persist { () async throws(TellerError) in try await store.recordOfflineSignIn(id, journaling: signingIn) }
        return (Operator(id: id, displayName: record.displayName), .offline)
    }

    public func unlock(_ signedIn: Operator, pin: String) async throws(SignInError) {
        let record = try await record(signedIn.id)
        if let until = record?.lockedUntil, until > store.clock.now() { throw .lockedOut(until: until) }
        guard let verifier = record?.verifier, hasher.matches(pin, verifier: verifier) else { throw try await failure(signedIn.id) }
        try await persist { () async throws(TellerError) in try await store.clearFailedAttempts(signedIn.id) }
    }

    /// Journals the sign-out.
    public func signOut(_ signedIn: Operator) async throws(TellerError) {
        _ = try await store.append(.signOut(signedIn.id))
    }

    private func record(_ id: OperatorID) async throws(SignInError) -> OperatorRecord? {
        do { return try await store.operatorRecord(id) } catch { throw .unavailable(error) }
    }

    private func failure(_ id: OperatorID) async throws(SignInError) -> SignInError {
        do {
            let (left, until) = try await store.recordFailedAttempt(id, maximum: maximumAttempts, lockout: lockout)
            if let until { return .lockedOut(until: until) }
            return .wrongPIN(attemptsLeft: left)
        } catch {
            throw .unavailable(error)
        }
    }

    private func hash(_ pin: String) throws(SignInError) -> String {
        do { return try hasher.verifier(for: pin) } catch { throw .unavailable(.storage(detail: "PIN hashing: \(error)")) }
    }

    private func persist(_ body: () async throws(TellerError) -> Void) async throws(SignInError) {
        do { try await body() } catch { throw .unavailable(error) }
    }
}
