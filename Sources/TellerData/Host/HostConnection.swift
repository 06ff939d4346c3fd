import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the host is and how long to wait for it.
public struct HostConfiguration: Sendable {
    public let baseURL: URL
    /// Allows plain http to a host that is not loopback. Off by default:
    /// tokens and PINs must not cross a network in clear text.
    public let allowInsecureHTTP: Bool
    /// Seconds before a request with no answer counts as offline.
    public let requestTimeout: TimeInterval

    /// - Throws: ``HostError/insecureURL(_:)`` for a URL that is not
    ///   https, unless it is http to loopback or `allowInsecureHTTP` is set.
    public init(baseURL: URL, allowInsecureHTTP: Bool = false, requestTimeout: TimeInterval = 10) throws(HostError) {
        guard let scheme = baseURL.scheme?.lowercased(), let host = baseURL.host, !host.isEmpty else {
            throw .insecureURL("host_url '\(baseURL.absoluteString)' is not an absolute http(s) URL")
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
        self.baseURL = baseURL
        self.allowInsecureHTTP = allowInsecureHTTP
        self.requestTimeout = requestTimeout
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".")
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// A raw answer from the host.
public struct HostResponse: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: Data

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` in seconds (the contract sends integers only).
    public var retryAfter: TimeInterval? { header("Retry-After").flatMap(TimeInterval.init) }
}

/// HTTP to the host over one keep-alive URLSession. Knows nothing of
/// tokens; turns transport failures into ``HostError/offline(_:)``.
public final class HostConnection: Sendable {
    public let configuration: HostConfiguration
    private let session: URLSession

    public init(configuration: HostConfiguration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
        sessionConfiguration.timeoutIntervalForResource = configuration.requestTimeout * 2
        sessionConfiguration.httpMaximumConnectionsPerHost = 4
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends one request and returns whatever status came back.
    /// - Throws: ``HostError/offline(_:)`` when no answer arrived.
    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws(HostError) -> HostResponse {
        guard let url = URL(string: path, relativeTo: configuration.baseURL) else {
            throw .invalidResponse("cannot form a URL from '\(path)'")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw HostError.invalidResponse("not an HTTP response") }
            var lowered: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
            }
            return HostResponse(status: http.statusCode, headers: lowered, body: data)
        } catch let error as HostError {
            throw error
        } catch {
            throw .offline(error.localizedDescription)
        }
    }
}
