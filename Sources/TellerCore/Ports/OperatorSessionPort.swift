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
}
