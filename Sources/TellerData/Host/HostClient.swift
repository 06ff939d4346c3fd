import Foundation
import TellerCore

/// The outcome the host decided for one submitted transaction (docs/host-api.md §6).
public enum SubmissionOutcome: Hashable, Sendable {
    case posted(reference: String, replayed: Bool)
    case rejected(reason: String, detail: String, replayed: Bool)
}

/// The bank host's /v1 API: authenticated calls with one retry after a
/// single-flight token refresh, answers mapped to domain values.
public final class HostClient: Sendable {
    let connection: HostConnection
    public let vault: TokenVault

    public init(connection: HostConnection, vault: TokenVault) {
        self.connection = connection
        self.vault = vault
    }

    /// Sends an authenticated request; on 401 renews the token once and repeats the same request.
    func authorized(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws(HostError) -> HostResponse {
        var token = try await vault.validAccessToken()
        for attempt in 0..<2 {
            var allHeaders = headers
            allHeaders["Authorization"] = "Bearer \(token)"
            let response = try await connection.send(method, path, body: body, headers: allHeaders)
            guard response.status == 401, attempt == 0 else { return response }
            token = try await vault.renew(replacing: token)
        }
        preconditionFailure("unreachable: the loop returns on its second pass")
    }

    /// `GET /v1/health`: true when the host answers 200.
    public func health() async throws(HostError) -> Bool {
        let response = try await connection.send("GET", "/v1/health")
        guard response.status == 200 else { throw HostMapper.error(for: response) }
        return true
    }

    /// `POST /v1/operators/verify`.
    public func verifyOperator(_ id: OperatorID, pin: String) async throws(HostError) -> Operator {
        let body = try Self.encode(WireOperatorVerifyRequest(operatorID: id.rawValue, pin: pin))
        let response = try await authorized("POST", "/v1/operators/verify", body: body)
        guard response.status == 200 else { throw HostMapper.error(for: response) }
        let wire = try HostMapper.decode(WireOperator.self, from: response)
        return Operator(id: id, displayName: wire.displayName)
    }

    /// The account snapshot and its recent bookings.
    public func account(_ iban: IBAN, recentLimit: Int = 10) async throws(HostError) -> AccountSnapshot {
        let response = try await authorized("GET", "/v1/accounts/\(iban.electronic)")
        guard response.status == 200 else { throw HostMapper.error(for: response) }
        let account = try HostMapper.decode(WireAccount.self, from: response)
        let history = try await authorized("GET", "/v1/accounts/\(iban.electronic)/transactions?limit=\(recentLimit)")
        guard history.status == 200 else { throw HostMapper.error(for: history) }
        return try HostMapper.snapshot(account, bookings: HostMapper.decode(WireAccountTransactions.self, from: history).transactions)
    }

    /// `POST /v1/transactions` with the row's frozen bytes and its key.
    public func submit(_ payload: [UInt8], key: IdempotencyKey) async throws(HostError) -> SubmissionOutcome {
        let response = try await authorized("POST", "/v1/transactions", body: Data(payload), headers: ["Idempotency-Key": key.rawValue])
        return try Self.outcome(response, key: key)
    }

    /// `GET /v1/transactions/{key}`: the stored outcome, or nil when the host has none.
    public func status(of key: IdempotencyKey) async throws(HostError) -> SubmissionOutcome? {
        let response = try await authorized("GET", "/v1/transactions/\(key.rawValue)")
        if response.status == 404 { return nil }
        return try Self.outcome(response, key: key)
    }

    static func outcome(_ response: HostResponse, key: IdempotencyKey) throws(HostError) -> SubmissionOutcome {
        guard response.status == 200 || response.status == 201 else { throw HostMapper.error(for: response) }
        let wire = try HostMapper.decode(WireOutcome.self, from: response)
        guard wire.idempotencyKey.lowercased() == key.rawValue else {
            throw .invalidResponse("answer for key \(wire.idempotencyKey) to a request with key \(key)")
        }
        let replayed = response.header("Idempotent-Replayed") == "true"
        switch wire.outcome {
        case "posted":
            guard let reference = wire.hostReference else { throw .invalidResponse("posted outcome without host_reference") }
            return .posted(reference: reference, replayed: replayed)
        case "rejected":
            return .rejected(reason: wire.reason ?? "unknown", detail: wire.detail ?? "", replayed: replayed)
        default:
            throw .invalidResponse("unknown outcome '\(wire.outcome)'")
        }
    }

    static func encode<T: Encodable>(_ value: T) throws(HostError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .invalidResponse("cannot encode \(T.self): \(error)") }
    }
}
