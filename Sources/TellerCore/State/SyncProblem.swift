import FoundationEssentials

/// Why nothing is going out to the bank right now: what the last request
/// showed, by class, with the technician's detail and since when.
public struct SyncProblem: Hashable, Sendable {
    /// The classes a technician and an operator can act on differently.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// No connection: refused, reset, no route, name not resolved.
        case offline
        /// No complete answer within `request_timeout_s`.
        case timeout
        /// 429, 503 or 409: the bank asked the terminal to wait.
        case hostBusy
        /// Another 5xx, or a status the request cannot be retried into success.
        case hostError
        /// An answer that is not the contract's: wrong status, Content-Type
        /// or JSON, or too large (a captive portal, a proxy).
        case notUnderstood
        /// A well-formed answer for another request: another key, amount,
        /// currency, kind or account than the row sent.
        case mismatch
        /// The host answered with a redirect, which is never followed.
        case redirectRefused
        /// The TLS handshake failed: certificate, CA or pinned key.
        case tls
        /// The bank refused the terminal's credentials.
        case authentication
        /// The host requires a client certificate (mutual TLS) and the terminal sent none.
        case certificateMissing
        /// The host does not trust the terminal's certificate: another CA issued it.
        case certificateUntrusted
        /// The terminal's certificate has expired (or is not valid yet).
        case certificateExpired
        /// The terminal's certificate names another terminal than `terminal_id`.
        case certificateOtherTerminal

        /// True when something answered, but not the way the bank answers:
        /// the status bar says "Host problem", not "Offline".
        public var isHostProblem: Bool {
            switch self {
            case .offline, .timeout: false
            default: true
            }
        }
    }

    public var kind: Kind
    /// What a technician reads: the host's words or the transport's.
    public var detail: String
    /// When this class of problem began (a retry of the same kind keeps it).
    public var since: Date

    public init(kind: Kind, detail: String, since: Date) {
        self.kind = kind
        self.detail = detail
        self.since = since
    }
}
