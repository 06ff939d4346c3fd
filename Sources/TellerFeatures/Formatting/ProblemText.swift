import TellerCore

/// The operator's words for why rows are not going out (SyncProblem.Kind):
/// what happened, in the branch's terms, never a status code.
public enum ProblemText {
    /// A short reason for a queue row or the status line.
    public static func text(_ kind: SyncProblem.Kind) -> String {
        switch kind {
        case .offline: "Waiting for the network"
        case .timeout: "The bank did not answer in time"
        case .hostBusy: "The bank asked the terminal to wait"
        case .hostError: "The bank's system reported an error"
        case .notUnderstood: "An answer that is not the bank's (portal or proxy?)"
        case .mismatch: "The answer did not match this payment"
        case .redirectRefused: "Sent elsewhere by the network; refused"
        case .tls: "Secure connection refused: certificate or key"
        case .authentication: "The bank refused this terminal's credentials"
        }
    }
}
