import FoundationEssentials
import TellerCore

/// What went wrong talking to the bank's host, translated at the border
/// from transport failures and problem+json answers (docs/host-api.md §2).
public enum HostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer: connection refused or reset, DNS, cut mid-answer.
    case offline(String)
    /// No complete answer within the request's one deadline.
    case timeout(String)
    /// The request was cancelled (the terminal is stopping); nothing is known of its fate.
    case cancelled
    /// 401 that a token refresh did not cure, or wrong terminal credentials.
    case unauthorized(code: String)
    /// 409 request_in_progress: the same key is being processed; retry later.
    case inProgress(retryAfter: TimeInterval?)
    /// 422 idempotency_key_reused: the frozen bytes differ from the first attempt.
    case keyReused(detail: String)
    /// 400: the request is malformed; retrying cannot help.
    case badRequest(code: String, field: String?, detail: String)
    /// 403: e.g. pin_incorrect, operator_disabled.
    case forbidden(code: String, detail: String)
    /// 404: account_not_found, transaction_not_found.
    case notFound(code: String)
    /// 429, 503 or another 5xx: retry after a while, with the same key.
    case retryable(status: Int, code: String?, retryAfter: TimeInterval?)
    /// An answer the contract does not allow: bad status, Content-Type or
    /// JSON, or larger than the contract's cap. Never a confirmation.
    case invalidResponse(String)
    /// A well-formed answer to another request (another key, amount,
    /// currency, kind or account). The message names both sides.
    case mismatch(String)
    /// The host answered with a 3xx; redirects are never followed.
    case redirectRefused(status: Int, location: String)
    /// The TLS handshake failed: certificate, CA file or pinned key.
    case tls(String)
    /// The host refused the terminal's own certificate (mutual TLS): the
    /// handshake's alert or the host's `certificate_terminal_mismatch`.
    case clientCertificateRefused(ClientCertificateRefusal, String)
    /// The configured host URL is refused (e.g. plain http to a non-loopback host).
    case insecureURL(String)

    /// False only when the error proves the bank did not post the
    /// request: it never reached the bank (no connection was made, the
    /// TLS handshake failed, the URL was refused) or the bank answered that
    /// it did not process it (400, 401, 403, 404). Anything else (a
    /// timeout, a cut answer, a 5xx, a cancellation) may follow a posting:
    /// such a row can no longer be voided.
    public var mayHaveBeenPosted: Bool {
        switch self {
        case .offline(let reason): !HostError.neverConnectedCodes.contains { reason.hasSuffix("(curl \($0))") }
        case .tls, .clientCertificateRefused, .insecureURL, .unauthorized, .forbidden, .notFound, .badRequest: false
        case .timeout, .cancelled, .inProgress, .keyReused, .retryable, .invalidResponse, .mismatch, .redirectRefused: true
        }
    }

    /// libcurl's codes for a connection never made (CURLE_COULDNT_RESOLVE_PROXY,
    /// CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT), which
    /// `HostConnection` writes at the end of an offline reason.
    static let neverConnectedCodes = [5, 6, 7]

    public var description: String {
        switch self {
        case .offline(let reason): "host unreachable: \(reason)"
        case .timeout(let reason): "host timed out: \(reason)"
        case .cancelled: "request cancelled: the terminal is stopping"
        case .unauthorized(let code): "host refused the terminal's credentials (\(code))"
        case .inProgress: "host is still processing this transaction (409)"
        case .keyReused(let detail): "host saw this idempotency key with a different body (422): \(detail)"
        case .badRequest(let code, let field, let detail): "host refused the request as malformed (400 \(code)\(field.map { ", field \($0)" } ?? "")): \(detail)"
        case .forbidden(let code, let detail): "host refused (403 \(code)): \(detail)"
        case .notFound(let code): "host: not found (\(code))"
        case .retryable(let status, let code, let retryAfter):
            "host busy or failing (\(status)\(code.map { " \($0)" } ?? ""))" + (retryAfter.map { ", retry after \(Int(exactly: $0.rounded()) ?? 0) s" } ?? "")
        case .invalidResponse(let reason): "host answer not understood: \(reason)"
        case .mismatch(let reason): "host answer does not match this transaction: \(reason)"
        case .redirectRefused(let status, let location): "the host redirected to \(location.isEmpty ? "another address" : location) (\(status)); refused"
        case .tls(let reason): "TLS: \(reason)"
        case .clientCertificateRefused(_, let reason): "TLS: the host refused this terminal's client certificate: \(reason)"
        case .insecureURL(let reason): reason
        }
    }

    /// The class of problem this error shows, for the queue, the status
    /// bar, diagnostics and `teller status`; nil when it is not a problem
    /// with the host (cancellation) or when the host answered as the bank.
    public var problemKind: SyncProblem.Kind? {
        switch self {
        case .offline: .offline
        case .timeout: .timeout
        case .cancelled: nil
        case .unauthorized: .authentication
        case .inProgress: .hostBusy
        case .retryable(let status, _, _): status == 429 || status == 503 ? .hostBusy : .hostError
        case .keyReused, .badRequest, .forbidden, .notFound: .hostError
        case .invalidResponse: .notUnderstood
        case .mismatch: .mismatch
        case .redirectRefused: .redirectRefused
        case .tls, .insecureURL: .tls
        case .clientCertificateRefused(let refusal, _): refusal.problemKind
        }
    }

    /// True when the bank itself answered this request in the contract's
    /// shape and is working: it said no, not "wait" or "who are you".
    package var isBankAnswer: Bool {
        switch self {
        case .inProgress, .keyReused, .badRequest, .forbidden, .notFound: true
        default: false
        }
    }
}

/// Why the host refused the terminal's certificate.
public enum ClientCertificateRefusal: Hashable, Sendable {
    /// It asked for one and the terminal has none configured.
    case missing
    /// Another CA issued it.
    case untrusted
    /// Expired or not valid yet.
    case expired
    /// It names another terminal.
    case otherTerminal

    /// The refusal a recorded problem names; nil for a problem that is not a certificate's.
    package init?(_ kind: SyncProblem.Kind) {
        switch kind {
        case .certificateMissing: self = .missing
        case .certificateUntrusted: self = .untrusted
        case .certificateExpired: self = .expired
        case .certificateOtherTerminal: self = .otherTerminal
        default: return nil
        }
    }

    package var problemKind: SyncProblem.Kind {
        switch self {
        case .missing: .certificateMissing
        case .untrusted: .certificateUntrusted
        case .expired: .certificateExpired
        case .otherTerminal: .certificateOtherTerminal
        }
    }
}
