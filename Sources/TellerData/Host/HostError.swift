import Foundation

/// What went wrong talking to the bank's host, translated at the border
/// from transport failures and problem+json answers (docs/host-api.md §2).
public enum HostError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer: connection refused or reset, DNS, timeout. The terminal is offline.
    case offline(String)
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
    /// An answer the contract does not allow (bad JSON, unexpected status).
    case invalidResponse(String)
    /// The configured host URL is refused (e.g. plain http to a non-loopback host).
    case insecureURL(String)

    public var description: String {
        switch self {
        case .offline(let reason): "host unreachable: \(reason)"
        case .unauthorized(let code): "host refused the terminal's credentials (\(code))"
        case .inProgress: "host is still processing this transaction (409)"
        case .keyReused(let detail): "host saw this idempotency key with a different body (422): \(detail)"
        case .badRequest(let code, let field, let detail): "host refused the request as malformed (400 \(code)\(field.map { ", field \($0)" } ?? "")): \(detail)"
        case .forbidden(let code, let detail): "host refused (403 \(code)): \(detail)"
        case .notFound(let code): "host: not found (\(code))"
        case .retryable(let status, let code, let retryAfter):
            "host busy or failing (\(status)\(code.map { " \($0)" } ?? ""))" + (retryAfter.map { ", retry after \(Int($0)) s" } ?? "")
        case .invalidResponse(let reason): "host answered outside the contract: \(reason)"
        case .insecureURL(let reason): reason
        }
    }
}
