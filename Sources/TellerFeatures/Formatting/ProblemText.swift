import TellerCore

/// The operator's words for why rows are not going out (SyncProblem.Kind):
/// what happened, in the branch's terms, never a status code.
public enum ProblemText {
    /// A short reason for a queue row or the status line.
    public static func text(_ kind: SyncProblem.Kind) -> String {
        switch kind {
        case .offline: tr("Waiting for the network")
        case .timeout: tr("The bank did not answer in time")
        case .hostBusy: tr("The bank asked the terminal to wait")
        case .hostError: tr("The bank's system reported an error")
        case .notUnderstood: tr("An answer that is not the bank's (portal or proxy?)")
        case .mismatch: tr("The answer did not match this payment")
        case .redirectRefused: tr("Sent elsewhere by the network; refused")
        case .tls: tr("Secure connection refused: certificate or key")
        case .authentication: tr("The bank refused this terminal's credentials")
        case .certificateMissing: tr("The bank requires this terminal's certificate; none is installed")
        case .certificateUntrusted: tr("The bank does not trust this terminal's certificate")
        // The bank's TLS alert is the same for both, so the screen does not guess which.
        case .certificateExpired: tr("This terminal's certificate is expired or not yet valid")
        case .certificateOtherTerminal: tr("This terminal's certificate belongs to another terminal")
        }
    }
}
