import FoundationEssentials
import TellerCore
import HostTransport

/// The outcome the host decided for one submitted transaction (docs/host-api.md §6).
public enum SubmissionOutcome: Hashable, Sendable {
    case posted(reference: String, replayed: Bool)
    case rejected(reason: String, detail: String, replayed: Bool)
}

/// The bank's record of one till event (docs/host-api.md §11).
public struct TillEventOutcome: Hashable, Sendable {
    public let reference: String
    public let replayed: Bool
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
    /// - Parameter progress: see ``HostConnection/send(_:_:body:headers:progress:)``; heard for each attempt.
    func authorized(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:],
                    progress: RequestProgress = RequestProgress()) async throws(HostError) -> HostResponse {
        var token = try await vault.validAccessToken()
        for attempt in 0..<2 {
            var allHeaders = headers
            allHeaders["Authorization"] = "Bearer \(token)"
            let response = try await connection.send(method, path, body: body, headers: allHeaders, progress: progress)
            // Another terminal's certificate: no request of this terminal's will pass; the vault stops asking.
            if response.status == 403 { await vault.note(HostMapper.error(for: response)) }
            guard response.status == 401, attempt == 0 else { return response }
            token = try await vault.renew(replacing: token)
        }
        preconditionFailure("unreachable: the loop returns on its second pass")
    }

    /// `GET /v1/health`: true when the host answers 200.
    public func health() async throws(HostError) -> Bool {
        try await reporting {
            let response = try await connection.send("GET", "/v1/health")
            guard response.status == 200 else { throw HostMapper.error(for: response) }
            _ = try HostMapper.decode(WireHealth.self, from: response)
            return true
        }
    }

    /// `POST /v1/operators/verify`.
    public func verifyOperator(_ id: OperatorID, pin: String) async throws(HostError) -> Operator {
        try await reporting {
            let body = try Self.encode(WireOperatorVerifyRequest(operatorID: id.rawValue, pin: pin))
            let response = try await authorized("POST", "/v1/operators/verify", body: body)
            guard response.status == 200 else { throw HostMapper.error(for: response) }
            let wire = try HostMapper.decode(WireOperator.self, from: response)
            guard wire.operatorID == id.rawValue else {
                throw HostError.mismatch("the host verified operator \(wire.operatorID), this terminal asked for \(id)")
            }
            return Operator(id: id, displayName: wire.displayName)
        }
    }

    /// The account snapshot and its recent bookings.
    public func account(_ iban: IBAN, recentLimit: Int = 10) async throws(HostError) -> AccountSnapshot {
        try await reporting {
            let response = try await authorized("GET", "/v1/accounts/\(iban.electronic)")
            guard response.status == 200 else { throw HostMapper.error(for: response) }
            let account = try HostMapper.decode(WireAccount.self, from: response)
            let history = try await authorized("GET", "/v1/accounts/\(iban.electronic)/transactions?limit=\(recentLimit)")
            guard history.status == 200 else { throw HostMapper.error(for: history) }
            let snapshot = try HostMapper.snapshot(account, bookings: HostMapper.decode(WireAccountTransactions.self, from: history).transactions)
            guard snapshot.iban == iban else { throw HostError.mismatch("the host answered for account \(snapshot.iban.grouped), this terminal asked for \(iban.grouped)") }
            return snapshot
        }
    }

    /// `POST /v1/transactions` with the row's frozen bytes and its key.
    /// - Parameter progress: its `handedOver` is called once the request is in the
    ///   transport's hands, while the answer is awaited (again if a 401
    ///   makes it go a second time): the sync engine begins the commit it
    ///   makes meanwhile then, so that work does not hold this request back.
    /// - Throws: ``HostError/mismatch(_:)`` when the answer is for another
    ///   request, ``HostError/invalidResponse(_:)`` when it is not the
    ///   contract's; neither is ever a confirmation.
    public func submit(_ payload: [UInt8], key: IdempotencyKey, progress: RequestProgress = RequestProgress()) async throws(HostError) -> SubmissionOutcome {
        try await reporting {
            let response = try await authorized("POST", "/v1/transactions", body: Data(payload), headers: ["Idempotency-Key": key.rawValue],
                                                progress: progress)
            return try Self.outcome(response, key: key, sent: payload)
        }
    }

    /// `POST /v1/till-events` with the event's frozen bytes and its key.
    /// - Throws: ``HostError/mismatch(_:)`` when the answer is for another
    ///   key, event or till, ``HostError/invalidResponse(_:)`` when it is not
    ///   the contract's; neither is ever a confirmation.
    public func submitTillEvent(_ payload: [UInt8], key: IdempotencyKey) async throws(HostError) -> TillEventOutcome {
        try await reporting {
            let response = try await authorized("POST", "/v1/till-events", body: Data(payload), headers: ["Idempotency-Key": key.rawValue])
            return try Self.tillEventOutcome(response, key: key, sent: payload)
        }
    }

    /// `POST /v1/rescues` (docs/host-api.md §12): hands a dead terminal's
    /// rescue file to the bank byte for byte, as this terminal; the bank
    /// checks its signature with the dead terminal's secret and posts each
    /// payment under its original key, once.
    /// - Throws: ``HostError/forbidden(code:detail:)`` with the bank's code
    ///   when it refuses the file (`rescue_signature_invalid`: a changed byte
    ///   or another terminal's secret; `rescue_branch_mismatch`;
    ///   `rescue_terminal_unknown`); ``HostError/mismatch(_:)`` when the
    ///   answer is for another terminal or does not account for every payment.
    public func importRescue(_ file: [UInt8]) async throws(HostError) -> RescueImportReport {
        let sent: RescueDocument
        do { sent = try RescueFile.unverifiedDocument(file) } catch {
            preconditionFailure("importRescue takes a rescue file; the caller reads it first (\(error))")
        }
        return try await reporting {
            let response = try await authorized("POST", "/v1/rescues", body: Data(file))
            guard response.status == 200 else { throw HostMapper.error(for: response) }
            let report = try HostMapper.decode(RescueImportReport.self, from: response)
            guard report.terminalID == sent.terminalID else {
                throw HostError.mismatch("the host answered for terminal \(report.terminalID)'s rescue, this file is \(sent.terminalID)'s")
            }
            let payments = report.payments
            let accounted = payments.posted + payments.alreadyPosted + payments.refused + payments.alreadyRefused
            let events = report.tillEvents.recorded + report.tillEvents.alreadyRecorded + report.tillEvents.refused
            guard accounted == sent.payments.count, events == sent.tillEvents.count else {
                throw HostError.mismatch("the host accounted for \(accounted) payments and \(events) till events, the file holds \(sent.payments.count) and \(sent.tillEvents.count)")
            }
            return report
        }
    }

    /// Runs one exchange and tells the connection's reachability when the
    /// host's body turned out unusable or for another request.
    private func reporting<T>(_ operation: () async throws -> T) async throws(HostError) -> T {
        do {
            let dates = AnswerDates()
            let value = try await AnswerDates.$current.withValue(dates) { try await operation() }
            connection.reachability.noteBankAnswer(date: dates.latest)
            return value
        } catch let error as HostError {
            if case .invalidResponse = error { connection.reachability.noteFailure(.notUnderstood, detail: error.description) }
            if case .mismatch = error { connection.reachability.noteFailure(.mismatch, detail: error.description) }
            throw error
        } catch {
            preconditionFailure("host exchanges throw HostError only, not \(error)")
        }
    }

    /// The bank's answer to *this* request, or an error: the status the
    /// outcome calls for, the same key, and the same kind, accounts, amount
    /// and currency as the frozen payload.
    static func outcome(_ response: HostResponse, key: IdempotencyKey, sent payload: [UInt8]) throws(HostError) -> SubmissionOutcome {
        guard response.status == 200 || response.status == 201 else { throw HostMapper.error(for: response) }
        let wire = try HostMapper.decode(WireOutcome.self, from: response)
        let sent: WireTransaction
        do { sent = try JSONDecoder().decode(WireTransaction.self, from: Data(payload)) } catch {
            throw .invalidResponse("the row's own frozen payload cannot be read: \(error)")
        }
        guard wire.idempotencyKey.lowercased() == key.rawValue else {
            throw .mismatch("the host answered for key \(wire.idempotencyKey), this terminal sent key \(key)")
        }
        let verb: String
        switch (wire.outcome, response.status) {
        case ("posted", 201): verb = "confirmed"
        case ("rejected", 200): verb = "rejected"
        default: throw .invalidResponse("outcome '\(wire.outcome)' with HTTP \(response.status)")
        }
        try HostMapper.checkEcho(wire, against: sent, verb: verb)
        let replayed = response.header("Idempotent-Replayed") == "true"
        if wire.outcome == "posted" {
            guard let reference = wire.hostReference, !reference.isEmpty else { throw .invalidResponse("posted outcome without host_reference") }
            return .posted(reference: reference, replayed: replayed)
        }
        return .rejected(reason: wire.reason ?? "unknown", detail: wire.detail ?? "", replayed: replayed)
    }

    /// The bank's record of *this* till event, or an error: `201`, the same
    /// key, and the same event, till, currency and total as the frozen payload.
    static func tillEventOutcome(_ response: HostResponse, key: IdempotencyKey, sent payload: [UInt8]) throws(HostError) -> TillEventOutcome {
        guard response.status == 201 else {
            if response.status == 200 { throw .invalidResponse("a till event answered 200, not 201 recorded") }
            throw HostMapper.error(for: response)
        }
        let wire = try HostMapper.decode(WireTillEventRecorded.self, from: response)
        let sent: WireTillEvent
        do { sent = try JSONDecoder().decode(WireTillEvent.self, from: Data(payload)) } catch {
            throw .invalidResponse("the till event's own frozen payload cannot be read: \(error)")
        }
        guard wire.idempotencyKey.lowercased() == key.rawValue else {
            throw .mismatch("the host answered for key \(wire.idempotencyKey), this terminal sent till event key \(key)")
        }
        guard wire.outcome == "recorded" else { throw .invalidResponse("till event outcome '\(wire.outcome)' with HTTP 201") }
        guard let event = wire.event, let till = wire.tillID, let currency = wire.currency, let total = wire.total else {
            throw .invalidResponse("the recorded till event does not echo event, till_id, currency and total")
        }
        if till != sent.tillID { throw .mismatch("the host recorded till \(till), this terminal sent till \(sent.tillID)") }
        if event != sent.event { throw .mismatch("the host recorded till \(till) \(event), this terminal sent it \(sent.event)") }
        if currency != sent.currency || total != sent.total {
            throw .mismatch("the host recorded a count of \(total) \(currency), this terminal sent \(sent.total) \(sent.currency)")
        }
        guard let reference = wire.hostReference, !reference.isEmpty else { throw .invalidResponse("recorded till event without host_reference") }
        return TillEventOutcome(reference: reference, replayed: response.header("Idempotent-Replayed") == "true")
    }

    static func encode<T: Encodable>(_ value: T) throws(HostError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .invalidResponse("cannot encode \(T.self): \(error)") }
    }
}
