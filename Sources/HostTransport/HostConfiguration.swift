import FoundationEssentials
import TellerCore

/// Where the host is, how long to wait for it and whom to trust.
public struct HostConfiguration: Sendable {
    public let baseURL: URL
    /// Allows plain http to a host that is not loopback. Off by default:
    /// tokens and PINs must not cross a network in clear text.
    public let allowInsecureHTTP: Bool
    /// One deadline per request: connecting, sending and the whole answer.
    public let requestTimeout: TimeInterval
    /// PEM file of the CAs to trust instead of the system store.
    public let caFile: String?
    /// The host's public key pin in libcurl's form ("sha256//<base64>").
    public let pinnedKey: String?
    /// The terminal's certificate and key for mutual TLS (`client_cert`, `client_key`); nil sends none.
    public let clientIdentity: ClientIdentity?
    /// The contract's cap on an answer body (docs/host-api.md §2).
    public static let maxAnswerBytes = 64 * 1024

    /// - Parameters:
    ///   - hostPinSHA256: base64 SHA-256 of the host's SubjectPublicKeyInfo, with or without "sha256//".
    /// - Throws: ``HostError/insecureURL(_:)`` for a URL that is not
    ///   https, unless it is http to loopback or `allowInsecureHTTP` is set,
    ///   and for a URL with a path, query or credentials (only an origin is
    ///   configured); ``HostError/tls(_:)`` for a pin that is not a SHA-256.
    public init(baseURL: URL, allowInsecureHTTP: Bool = false, requestTimeout: TimeInterval = 10, caFile: String? = nil, hostPinSHA256: String? = nil,
                clientIdentity: ClientIdentity? = nil) throws(HostError) {
        guard let scheme = baseURL.scheme?.lowercased(), let host = baseURL.host, !host.isEmpty else {
            throw .insecureURL("host_url '\(baseURL.absoluteString)' is not an absolute http(s) URL")
        }
        guard baseURL.user == nil, baseURL.password == nil, baseURL.query == nil, baseURL.fragment == nil,
              baseURL.path.isEmpty || baseURL.path == "/" else {
            throw .insecureURL("host_url '\(baseURL.absoluteString)' must be an origin only (scheme, host and port), with no path, query or credentials")
        }
        switch scheme {
        case "https": break
        case "http":
            guard allowInsecureHTTP || HostConfiguration.isLoopback(host) else {
                throw .insecureURL("host_url '\(baseURL.absoluteString)' uses plain http to a host that is not loopback; use https, or set allow_insecure_http = true for a lab bench")
            }
        default:
            throw .insecureURL("host_url '\(baseURL.absoluteString)' must use https")
        }
        if let hostPinSHA256 {
            guard let pin = PublicKeyPin.curlForm(hostPinSHA256) else {
                throw .tls("host_pin_sha256 '\(hostPinSHA256)' is not the base64 of a 32-byte SHA-256")
            }
            guard scheme == "https" else { throw .tls("host_pin_sha256 is set but host_url is not https") }
            pinnedKey = pin
        } else {
            pinnedKey = nil
        }
        self.baseURL = baseURL
        self.allowInsecureHTTP = allowInsecureHTTP
        self.requestTimeout = requestTimeout
        self.caFile = caFile
        self.clientIdentity = clientIdentity
    }

    /// scheme://host[:port], with no trailing slash: every request goes to this origin and nowhere else.
    package var origin: String {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingBytes { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }.lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".")
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
