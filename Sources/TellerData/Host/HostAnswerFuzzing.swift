import FoundationEssentials
import TellerCore

/// The host-answer decoding over arbitrary bytes, for the libFuzzer target
/// in fuzz/host-answer (docs/qa.md, "Fuzzing").
///
/// Whatever a host, a captive portal or a proxy sends back must end in a
/// ``HostError`` or an outcome, never in a trap, a hang or memory growing
/// far beyond the 64 KiB answer cap.
public enum HostAnswerFuzzing {
    /// Builds one ``HostResponse`` from `bytes` and reads it every way the
    /// terminal does, throwing the results away.
    ///
    /// The first byte picks the status (its low four bits, from
    /// ``statuses``) and the Content-Type (its high bits, from
    /// ``mediaTypes``). The rest, up to its first NUL byte, is the
    /// `Retry-After` header (none when there is no NUL); after the NUL is
    /// the body. The answer then goes through
    /// ``HostMapper/error(for:)``, ``HostMapper/decode(_:from:)`` for every
    /// wire type, ``HostMapper/snapshot(_:bookings:)`` and
    /// ``HostClient/outcome(_:key:sent:)`` against ``frozenPayload``, whose
    /// outcome every check (key, kind, account, amount) would accept.
    ///
    /// - Parameter bytes: anything at all.
    public static func exercise(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = bytes.dropFirst()
        var headers = ["idempotent-replayed": "true"]
        if let mediaType = mediaTypes[Int(selector >> 4) % mediaTypes.count] { headers["content-type"] = mediaType }
        var body = rest
        if let nul = rest.firstIndex(of: 0) {
            headers["retry-after"] = String(decoding: rest[..<nul], as: UTF8.self)
            body = rest[(nul + 1)...]
        }
        let response = HostResponse(status: statuses[Int(selector & 0x0f) % statuses.count], headers: headers, body: Data(body))
        _ = (response.mediaType, response.retryAfter)

        let error = HostMapper.error(for: response)
        _ = (error.description, error.isBankAnswer, error.problemKind)

        _ = try? HostMapper.decode(WireProblem.self, from: response)
        _ = try? HostMapper.decode(WireTokens.self, from: response)
        _ = try? HostMapper.decode(WireOperator.self, from: response)
        _ = try? HostMapper.decode(WireHealth.self, from: response)
        _ = try? HostMapper.decode(WireTransaction.self, from: response)
        if let account = try? HostMapper.decode(WireAccount.self, from: response) {
            let bookings = (try? HostMapper.decode(WireAccountTransactions.self, from: response).transactions) ?? []
            _ = try? HostMapper.snapshot(account, bookings: bookings)
        }
        if let bookings = try? HostMapper.decode(WireAccountTransactions.self, from: response) {
            for booking in bookings.transactions { _ = HostMapper.parseTimestamp(booking.bookedAt) }
        }

        do {
            _ = try HostClient.outcome(response, key: key, sent: frozenPayload)
        } catch {
            _ = (error.description, error.isBankAnswer, error.problemKind)
        }
    }

    /// Every status the contract names, and a few it does not.
    static let statuses = [200, 201, 400, 401, 403, 404, 409, 422, 429, 500, 503, 504, 204, 302, 418, 599]

    /// The contract's media types, their variants, a captive portal's, and none.
    static let mediaTypes: [String?] = [
        "application/json", "application/problem+json", "application/json; charset=utf-8", "text/html", nil,
        " Application/JSON ;x=y",
    ]

    /// The idempotency key of ``frozenPayload``.
    static let key = IdempotencyKey(rawValue: "3f2504e0-4f89-41d3-9a0c-0305e82c3301")!

    /// A transfer's frozen bytes as WireTransaction encodes them in the outbox row.
    static let frozenPayload = Array(#"""
        {"account_iban":"DE89370400440532013000","amount":5000,"client_reference":"3F2504E0",\#
        "counterparty_iban":"GB82WEST12345698765432","created_at":"2026-11-29T13:59:40.123Z",\#
        "currency":"EUR","kind":"transfer","operator_id":"1001"}
        """#.utf8)
}
