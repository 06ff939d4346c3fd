import FoundationEssentials
import Cryptography
import HostTransport
import SystemCalls

/// Holds the terminal's access token and refreshes it single-flight: any
/// number of requests that meet a 401 at once cause exactly one refresh,
/// and every one of them retries with the new token.
///
/// The refresh token survives restarts in `<data-dir>/refresh-token`
/// (mode 0600, written with write + fsync + rename), sealed under a key
/// derived from the terminal secret (``SealedBox``): never plaintext on
/// disk. A token another secret sealed, or a changed file, is dropped and
/// the terminal authenticates afresh.
public actor TokenVault {
    private let connection: HostConnection
    private let credentials: TerminalCredentials
    private let refreshTokenPath: String
    private let clock: @Sendable () -> Date
    private let seal: SealedBox

    private var accessToken: String?
    private var accessExpiry: Date = .distantPast
    private var refreshToken: String?
    private var inFlight: Task<String, any Error>?

    /// How many refreshes and token issues this vault has made (for diagnostics and tests).
    public private(set) var refreshCount = 0

    public init(connection: HostConnection, credentials: TerminalCredentials, dataDirectory: String, clock: @escaping @Sendable () -> Date = Date.init) {
        self.connection = connection
        self.credentials = credentials
        refreshTokenPath = dataDirectory.appendingPathComponent("refresh-token")
        self.clock = clock
        seal = SealedBox(secret: credentials.secret, purpose: "refresh-token")
        // A power cut during a rotation can leave its temporary behind.
        DurableFile.removeLeftovers(of: refreshTokenPath)
        let stored = FileManager.default.contents(atPath: refreshTokenPath).map { [UInt8]($0) } ?? []
        if SealedBox.isSealed(stored) {
            refreshToken = seal.open(stored).flatMap { try? JSONDecoder().decode(StoredRefreshToken.self, from: Data($0)) }?.token
        } else if let plain = try? JSONDecoder().decode(StoredRefreshToken.self, from: Data(stored)) {
            // Written in the clear by an older version: sealed now, so it does not stay readable.
            refreshToken = plain.token
            try? DurableFile.write(Data(seal.seal(stored)), to: refreshTokenPath)
        }
    }

    /// Set by an answer that docs/host-api.md §10 says no retry can help
    /// (`403 certificate_terminal_mismatch`: this certificate is another
    /// terminal's): from then on the vault asks the host for no token and
    /// every caller gets that answer at once, until the terminal starts
    /// again with another configuration (provisioning restarts it).
    private var refusal: HostError?

    /// Whether `error` is an answer no retry can help (``refusal``).
    static func isFinal(_ error: HostError) -> Bool {
        if case .clientCertificateRefused(.otherTerminal, _) = error { true } else { false }
    }

    /// Keeps `error` when it is one no retry can help (``isFinal(_:)``): the
    /// host answered a request that way, so no token will help either.
    public func note(_ error: HostError) {
        if refusal == nil, Self.isFinal(error) { refusal = error }
    }

    /// A usable access token: the cached one, or a fresh one.
    public func validAccessToken() async throws(HostError) -> String {
        if let refusal { throw refusal }
        // Refresh a little early so a request does not leave with a token that dies on the way.
        if let accessToken, accessExpiry.timeIntervalSince(clock()) > 5 { return accessToken }
        return try await renew(replacing: accessToken)
    }

    /// Called after a 401: returns a token newer than `rejected`, starting
    /// at most one refresh however many callers arrive together.
    public func renew(replacing rejected: String?) async throws(HostError) -> String {
        if let refusal { throw refusal }
        if let accessToken, accessToken != rejected, accessExpiry > clock() { return accessToken }
        if let inFlight {
            return try await Self.value(of: inFlight)
        }
        let task = Task { try await self.obtainTokens() }
        inFlight = task
        defer { inFlight = nil }
        // The refresh runs in its own task so that concurrent callers share
        // it; a caller that is cancelled (the terminal is stopping) ends it.
        let result: Result<String, HostError> = await withTaskCancellationHandler {
            do throws(HostError) { return .success(try await Self.value(of: task)) } catch { return .failure(error) }
        } onCancel: {
            task.cancel()
        }
        if case .failure(let error) = result { note(error) }
        return try result.get()
    }

    private static func value(of task: Task<String, any Error>) async throws(HostError) -> String {
        do {
            return try await task.value
        } catch let error as HostError {
            throw error
        } catch {
            throw .invalidResponse("\(error)")
        }
    }

    /// Refreshes with the stored refresh token, or authenticates again with
    /// the terminal secret when there is none or it is spent.
    private func obtainTokens() async throws -> String {
        refreshCount += 1
        if let refreshToken {
            let body = try JSONEncoder().encode(WireRefreshRequest(refreshToken: refreshToken))
            let response = try await connection.send("POST", "/v1/auth/refresh", body: body)
            if response.status == 200 { return try accept(response) }
            let error = HostMapper.error(for: response)
            guard case .unauthorized = error else { throw error }
            // refresh_token_invalid / _expired: spent or lost; authenticate afresh.
            self.refreshToken = nil
        }
        let body = try JSONEncoder().encode(WireTokenRequest(terminalID: credentials.terminalID, secret: credentials.secret))
        let response = try await connection.send("POST", "/v1/auth/token", body: body)
        guard response.status == 200 else { throw HostMapper.error(for: response) }
        return try accept(response)
    }

    private func accept(_ response: HostResponse) throws -> String {
        let tokens: WireTokens
        do {
            tokens = try HostMapper.decode(WireTokens.self, from: response)
        } catch {
            connection.reachability.noteFailure(.notUnderstood, detail: error.description)
            throw error
        }
        connection.reachability.noteBankAnswer(date: response.header("Date").flatMap(TrustedClock.parseHTTPDate))
        accessToken = tokens.accessToken
        accessExpiry = clock().addingTimeInterval(tokens.expiresIn)
        refreshToken = tokens.refreshToken
        let stored = StoredRefreshToken(token: tokens.refreshToken, expiresAt: clock().addingTimeInterval(tokens.refreshExpiresIn))
        try DurableFile.write(Data(seal.seal([UInt8](try JSONEncoder().encode(stored)))), to: refreshTokenPath)
        return tokens.accessToken
    }
}

/// The refresh token as kept on disk.
struct StoredRefreshToken: Codable {
    let token: String
    let expiresAt: Date
}
