/// How an operator was let in.
public enum SignInMode: Hashable, Sendable {
    /// The host verified the PIN.
    case online
    /// The host was unreachable; the locally stored verifier matched.
    case offline
}

/// Verifies operators' PINs, online first, offline from the stored verifier.
public protocol OperatorSessionPort: Sendable {
    func signIn(_ id: OperatorID, pin: String) async throws(SignInError) -> (Operator, SignInMode)
    /// Checks the PIN of the operator who locked the screen.
    func unlock(_ signedIn: Operator, pin: String) async throws(SignInError)
    /// Records that the operator signed out (the journal). The screen signs
    /// out whatever this answers: a failed write never keeps anyone signed in.
    func signOut(_ signedIn: Operator) async throws(TellerError)
    /// Checks a supervisor's PIN for what `operatorID` asks them to approve,
    /// on the same screen, online first and offline from the stored
    /// verifier like a sign-in (a wrong PIN counts towards the supervisor's
    /// lockout), without signing anyone in or out. The approval itself is
    /// journaled with what it approves.
    /// - Throws: ``ApprovalRefusal/ownTransaction`` when the supervisor is
    ///   the operator, ``ApprovalRefusal/notSupervisor(_:)`` when the staff
    ///   number is not one of this terminal's supervisors (the `supervisors`
    ///   key), ``ApprovalRefusal/signIn(_:)`` when the PIN is not accepted.
    func approve(_ supervisorID: OperatorID, pin: String, for operatorID: OperatorID) async throws(ApprovalRefusal) -> Operator
    /// What ``approve(_:pin:for:)`` would refuse before the PIN
    /// (``ApprovalRefusal/beforePIN(_:for:supervisors:)``), so that the
    /// approval screen says it as soon as the staff number is entered.
    func refusalBeforePIN(_ supervisorID: OperatorID, for operatorID: OperatorID) async -> ApprovalRefusal?
    /// The member of staff `id` names, as the bank named them the last
    /// time their PIN was verified on this terminal (a sign-in or an
    /// approval); nil when it never was, or their record cannot be read.
    /// Slips and screens print them by name with it (receipts, till reports).
    func knownOperator(_ id: OperatorID) async -> Operator?
}
