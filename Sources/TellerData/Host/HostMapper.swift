import FoundationEssentials
import TellerCore
import HostTransport

/// Converts wire DTOs into domain values and HTTP answers into
/// ``HostError``s, so nothing above TellerData sees a status code.
enum HostMapper {
    /// The error an unsuccessful answer stands for (docs/host-api.md §2, §10).
    static func error(for response: HostResponse) -> HostError {
        let problem = try? JSONDecoder().decode(WireProblem.self, from: response.body)
        let code = problem?.code ?? "http_\(response.status)"
        let detail = problem?.detail ?? problem?.title ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        switch response.status {
        case 400: return .badRequest(code: code, field: problem?.field, detail: detail)
        case 401: return .unauthorized(code: code)
        case 403 where code == "certificate_terminal_mismatch": return .clientCertificateRefused(.otherTerminal, detail)
        case 403: return .forbidden(code: code, detail: detail)
        case 404: return .notFound(code: code)
        case 409: return .inProgress(retryAfter: response.retryAfter)
        case 422: return .keyReused(detail: detail)
        case 429, 500...599: return .retryable(status: response.status, code: problem?.code, retryAfter: response.retryAfter)
        default: return .invalidResponse("unexpected status \(response.status) (\(code))")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from response: HostResponse) throws(HostError) -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw .invalidResponse("\(T.self) could not be read: \(error)")
        }
    }

    /// Throws unless the outcome echoes what this terminal sent: a missing
    /// member is an answer not understood, a different one a mismatch that
    /// names both sides.
    static func checkEcho(_ wire: WireOutcome, against sent: WireTransaction, verb: String) throws(HostError) {
        guard let kind = wire.kind, let account = wire.accountIBAN, let amount = wire.amount, let currency = wire.currency else {
            throw .invalidResponse("the \(wire.outcome) outcome does not echo kind, account_iban, amount and currency")
        }
        func money(_ minor: Int64, _ code: String) -> String {
            Currency(code: code).map { Money(minorUnits: minor, currency: $0).description } ?? "\(minor) minor units of \(code)"
        }
        if amount != sent.amount || currency != sent.currency {
            throw .mismatch("the host \(verb) \(money(amount, currency)), this terminal sent \(money(sent.amount, sent.currency))")
        }
        if kind != sent.kind {
            throw .mismatch("the host \(verb) a \(kind), this terminal sent a \(sent.kind)")
        }
        if account != sent.accountIBAN {
            throw .mismatch("the host \(verb) it on account \(account), this terminal sent account \(sent.accountIBAN)")
        }
        if wire.counterpartyIBAN != sent.counterpartyIBAN {
            throw .mismatch("the host \(verb) it with counterparty \(wire.counterpartyIBAN ?? "none"), this terminal sent \(sent.counterpartyIBAN ?? "none")")
        }
        // A host that does not echo `reverses` did not take the payment as a reversal.
        if wire.reverses?.lowercased() != sent.reverses {
            throw .mismatch("the host \(verb) it as reversing \(wire.reverses ?? "nothing"), this terminal sent a reversal of \(sent.reverses ?? "nothing")")
        }
    }

    static func snapshot(_ account: WireAccount, bookings: [WireBooking]) throws(HostError) -> AccountSnapshot {
        guard let currency = Currency(code: account.currency) else { throw .invalidResponse("unknown currency '\(account.currency)'") }
        let iban: IBAN
        do { iban = try IBAN(account.iban) } catch { throw .invalidResponse("account IBAN '\(account.iban)': \(error)") }
        guard let asOf = parseTimestamp(account.asOf) else { throw .invalidResponse("as_of '\(account.asOf)' is not RFC 3339") }
        var recent: [ActivityItem] = []
        for booking in bookings {
            guard let kind = TransactionKind(rawValue: booking.kind), booking.currency == currency.code,
                  let bookedAt = parseTimestamp(booking.bookedAt) else {
                throw .invalidResponse("booking \(booking.hostReference) is malformed")
            }
            let signed = booking.direction == "debit" ? -booking.amount : booking.amount
            let description = booking.counterpartyIBAN.flatMap { try? IBAN($0).grouped } ?? booking.clientReference ?? ""
            recent.append(ActivityItem(reference: booking.hostReference, kind: kind, amount: Money(minorUnits: signed, currency: currency), bookedAt: bookedAt, description: description))
        }
        return AccountSnapshot(
            iban: iban, holder: account.holder, balance: Money(minorUnits: account.balance, currency: currency),
            available: Money(minorUnits: account.available, currency: currency), asOf: asOf, recent: recent)
    }

    /// RFC 3339 with or without fractional seconds, any offset.
    static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: .iso8601)
    }
}
