import FoundationEssentials
import TellerCore
import HostTransport

/// A raw answer from the host that passed the transport's checks.
public struct HostResponse: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: Data

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` in whole seconds, at most a day (the contract sends
    /// integers only); anything else ("1e300", "inf", a date) is ignored.
    public var retryAfter: TimeInterval? {
        guard let text = header("Retry-After"), let seconds = Int(text.trimmingASCIIWhitespace()), (0...86_400).contains(seconds) else { return nil }
        return TimeInterval(seconds)
    }

    /// The Content-Type's media type, lower case, without parameters.
    var mediaType: String? {
        header("Content-Type").map { $0.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "" }
            .map { $0.trimmingASCIIWhitespace().lowercased() }
    }
}

/// HTTP to the host over libcurl (one multi handle, keep-alive). Knows
/// nothing of tokens. Never follows a redirect, caps the answer, bounds each
/// request by one deadline, can be cancelled at once, and refuses any
/// answer whose status and Content-Type the contract does not allow.
/// Every outcome feeds ``reachability``.
public final class HostConnection: Sendable {
    public let configuration: HostConfiguration
    /// What the last requests showed of the host.
    public let reachability: HostReachability
    private let driver = CurlDriver()

    public init(configuration: HostConfiguration, reachability: HostReachability = HostReachability()) {
        self.configuration = configuration
        self.reachability = reachability
    }

    deinit { driver.stop() }

    /// Sends one request to the configured origin.
    /// - Parameters:
    ///   - path: an absolute path ("/v1/…"); nothing else can be addressed.
    ///   - progress: hears when the request is in libcurl's hands and when it leaves (``RequestProgress``).
    /// - Throws: ``HostError/offline(_:)``, ``HostError/timeout(_:)``,
    ///   ``HostError/cancelled``, ``HostError/tls(_:)``,
    ///   ``HostError/redirectRefused(status:location:)`` and
    ///   ``HostError/invalidResponse(_:)`` (wrong Content-Type, too large).
    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:],
                     progress: RequestProgress = RequestProgress()) async throws(HostError) -> HostResponse {
        do {
            let response = try await exchange(method, path, body: body, headers: headers, progress: progress)
            let date = response.header("Date").flatMap(TrustedClock.parseHTTPDate)
            AnswerDates.current?.received(date)
            if (200...299).contains(response.status) {
                // Whoever reads the body says whether it was the bank's answer
                // (HostClient, TokenVault): a 200 can still be a captive portal's.
            } else {
                let error = HostMapper.error(for: response)
                if error.isBankAnswer {
                    reachability.noteBankAnswer(date: date)
                } else if let kind = error.problemKind {
                    reachability.noteFailure(kind, detail: error.description)
                }
            }
            return response
        } catch {
            if let kind = error.problemKind, !error.isBankAnswer { reachability.noteFailure(kind, detail: error.description) }
            throw error
        }
    }

    private func exchange(_ method: String, _ path: String, body: Data?, headers: [String: String],
                          progress: RequestProgress) async throws(HostError) -> HostResponse {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("://") else {
            preconditionFailure("HostConnection.send takes a path on the configured origin, not '\(path)'")
        }
        var requestHeaders: [(name: String, value: String)] = [("Accept", "application/json")]
        if body != nil { requestHeaders.append(("Content-Type", "application/json")) }
        requestHeaders += headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let request = CurlTransfer.Request(method: method, url: configuration.origin + path, headers: requestHeaders, body: body.map { [UInt8]($0) })
        let limits = CurlTransfer.Limits(deadline: configuration.requestTimeout, maxBody: HostConfiguration.maxAnswerBytes,
                                         caFile: configuration.caFile, pinnedKey: configuration.pinnedKey,
                                         clientIdentity: configuration.clientIdentity)
        let answer: CurlTransfer.Answer
        switch await driver.perform(request, limits: limits, progress: progress) {
        case .success(let value): answer = value
        case .failure(let failure): throw translate(failure)
        }
        if (300...399).contains(answer.status) {
            throw .redirectRefused(status: answer.status, location: answer.redirectURL ?? answer.headers["location"] ?? "")
        }
        let response = HostResponse(status: answer.status, headers: answer.headers, body: Data(answer.body))
        // The contract's media types: JSON for answers, problem+json for errors.
        let expected = (200...299).contains(answer.status) ? ["application/json"] : ["application/problem+json", "application/json"]
        guard let mediaType = response.mediaType, expected.contains(mediaType) else {
            throw .invalidResponse("HTTP \(answer.status) with Content-Type '\(response.header("Content-Type") ?? "none")', expected \(expected[0])")
        }
        return response
    }

    private func translate(_ failure: CurlTransfer.Failure) -> HostError {
        let seconds = Self.seconds(configuration.requestTimeout)
        switch failure {
        case .cancelled:
            return .cancelled
        case .tooLarge(let limit):
            return .invalidResponse("the answer is larger than the contract's \(limit / 1024) KiB; reading stopped")
        case .pinMismatch(let presented):
            return .tls("the host's public key does not match host_pin_sha256: expected \(configuration.pinnedKey ?? "?"), the host presented \(presented ?? "a key that could not be read")")
        case .curl(let code, let message):
            if let refusal = tlsRefusal(code: code, message: message) { return refusal }
            if let again = certificateRefusedAgain(code: code, message: message) { return again }
            switch code {
            case 28: // CURLE_OPERATION_TIMEDOUT, including the low-speed limit
                return .timeout("no complete answer within request_timeout_s = \(seconds) (\(message))")
            case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
                return .tls("\(message) (curl \(code))")
            default:
                return .offline("\(message) (curl \(code))")
            }
        }
    }

    /// A refusal in the handshake, in words a technician can act on: the
    /// host's alert about the terminal's own certificate (TLS 1.3 sends it
    /// after the client's side of the handshake, so libcurl may report it
    /// as a failed read) or a protocol version below TLS 1.2.
    private func tlsRefusal(code: UInt32, message: String) -> HostError? {
        let text = message.lowercased()
        let raw = "(\(message), curl \(code))"
        if text.contains("unsupported protocol") || text.contains("alert protocol version") {
            return .tls("the host offers only TLS 1.0 or 1.1; TLS 1.2 or later is required \(raw)")
        }
        guard text.contains("alert") else { return nil }
        let identity = configuration.clientIdentity
        let mine = identity.map { "the certificate for \($0.certificate.subject) from client_cert, issued by \($0.certificate.issuer)" }
        if let certificate = identity?.certificate, !certificate.isValid(at: Date()) {
            let state = certificate.notAfter < Date() ? "expired on \(CertificateFiles.format(certificate.notAfter))"
                : "is not valid until \(CertificateFiles.format(certificate.notBefore))"
            return .clientCertificateRefused(.expired, "client_cert (\(certificate.subject), issued by \(certificate.issuer)) \(state); install a new certificate (teller identity csr) \(raw)")
        }
        // TLS 1.3's "certificate required" is sent only to a client that sent none.
        if text.contains("certificate required") {
            guard let mine else {
                return .clientCertificateRefused(.missing, "the host requires a client certificate and none is configured; set client_cert and client_key (teller identity csr) \(raw)")
            }
            return .clientCertificateRefused(.untrusted, "the host asked for a client certificate and refused \(mine) \(raw)")
        }
        // TLS 1.2 has no such alert: a host that wants a certificate (or
        // refuses the one sent) and a host that shares no cipher both say
        // "handshake failure"; say both, and do not guess which.
        if text.contains("handshake failure") {
            let certificate = mine.map { "or it refused \($0)" } ?? "or it requires a client certificate and none is configured (client_cert, client_key)"
            return .tls("the host ended the handshake: it shares no cipher or version with the terminal, \(certificate) \(raw)")
        }
        // The alerts below judge a client certificate: only one the terminal sent.
        guard let mine else { return nil }
        if text.contains("unknown ca") {
            return .clientCertificateRefused(.untrusted, "the host does not trust \(mine): not issued by a CA it accepts \(raw)")
        }
        if text.contains("certificate expired") {
            let when = identity.map { " (valid \(CertificateFiles.format($0.certificate.notBefore)) to \(CertificateFiles.format($0.certificate.notAfter)))" } ?? ""
            return .clientCertificateRefused(.expired, "the host refused \(mine) as expired or not yet valid\(when) \(raw)")
        }
        if text.contains("bad certificate") || text.contains("certificate unknown") || text.contains("certificate revoked")
            || text.contains("unsupported certificate") || text.contains("access denied") {
            return .clientCertificateRefused(.untrusted, "the host refused \(mine) \(raw)")
        }
        return nil
    }

    /// A host that refused the terminal's certificate and closes the
    /// connection the moment it has sent its alert: TLS 1.3 sends the alert
    /// after the client's side of the handshake, so libcurl may meet the
    /// closed socket first and report a failed send or read (curl 55, 56)
    /// with no alert in its words. After a certificate refusal from this
    /// host that is the same refusal again, not the network going away: the
    /// status would otherwise flap between the certificate and "offline".
    private func certificateRefusedAgain(code: UInt32, message: String) -> HostError? {
        guard code == 55 || code == 56, let last = reachability.problem, let refusal = ClientCertificateRefusal(last.kind) else { return nil }
        let first = last.detail.components(separatedBy: "; again: ")[0]
        return .clientCertificateRefused(refusal, "\(first); again: the host closed the connection before its alert was read (\(message), curl \(code))")
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
