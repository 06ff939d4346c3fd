import FoundationEssentials

// Wire shapes of docs/host-api.md. They stay inside TellerData;
// HostMapper turns them into TellerCore's domain types.

/// RFC 9457 problem document (§2).
struct WireProblem: Decodable {
    let code: String
    let title: String?
    let detail: String?
    let field: String?
}

/// `POST /v1/auth/token` and `/v1/auth/refresh` answers (§3).
struct WireTokens: Decodable {
    let accessToken: String
    let expiresIn: Double
    let refreshToken: String
    let refreshExpiresIn: Double

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case refreshExpiresIn = "refresh_expires_in"
    }
}

struct WireTokenRequest: Encodable {
    let terminalID: String
    let secret: String

    enum CodingKeys: String, CodingKey {
        case terminalID = "terminal_id"
        case secret
    }
}

struct WireRefreshRequest: Encodable {
    let refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /v1/operators/verify` (§4).
struct WireOperatorVerifyRequest: Encodable {
    let operatorID: String
    let pin: String

    enum CodingKeys: String, CodingKey {
        case operatorID = "operator_id"
        case pin
    }
}

struct WireOperator: Decodable {
    let operatorID: String
    let displayName: String

    enum CodingKeys: String, CodingKey {
        case operatorID = "operator_id"
        case displayName = "display_name"
    }
}

/// `GET /v1/accounts/{iban}` (§5).
struct WireAccount: Decodable {
    let iban: String
    let holder: String
    let currency: String
    let balance: Int64
    let available: Int64
    let status: String
    let asOf: String

    enum CodingKeys: String, CodingKey {
        case iban, holder, currency, balance, available, status
        case asOf = "as_of"
    }
}

/// `GET /v1/accounts/{iban}/transactions` (§5).
struct WireAccountTransactions: Decodable {
    let transactions: [WireBooking]
}

struct WireBooking: Decodable {
    let hostReference: String
    let kind: String
    let direction: String
    let amount: Int64
    let currency: String
    let counterpartyIBAN: String?
    let bookedAt: String
    let clientReference: String?

    enum CodingKeys: String, CodingKey {
        case kind, direction, amount, currency
        case hostReference = "host_reference"
        case counterpartyIBAN = "counterparty_iban"
        case bookedAt = "booked_at"
        case clientReference = "client_reference"
    }
}

/// `POST /v1/transactions` and `GET /v1/transactions/{key}` answers (§6, §8).
/// The echoed members are optional here so that a missing one is named
/// by ``HostMapper/checkEcho(_:against:verb:)`` rather than by the decoder.
struct WireOutcome: Decodable {
    let outcome: String
    let idempotencyKey: String
    let hostReference: String?
    let reason: String?
    let detail: String?
    let kind: String?
    let accountIBAN: String?
    let counterpartyIBAN: String?
    let amount: Int64?
    let currency: String?
    /// The key of the payment this one reverses, echoed; absent for an ordinary payment.
    let reverses: String?

    enum CodingKeys: String, CodingKey {
        case outcome, reason, detail, kind, amount, currency, reverses
        case idempotencyKey = "idempotency_key"
        case hostReference = "host_reference"
        case accountIBAN = "account_iban"
        case counterpartyIBAN = "counterparty_iban"
    }
}

/// The answer to `POST /v1/till-events` (§11): the record and its echo.
struct WireTillEventRecorded: Decodable {
    let outcome: String
    let idempotencyKey: String
    let event: String?
    let tillID: Int64?
    let currency: String?
    let total: Int64?
    let hostReference: String?

    enum CodingKeys: String, CodingKey {
        case outcome, event, currency, total
        case idempotencyKey = "idempotency_key"
        case tillID = "till_id"
        case hostReference = "host_reference"
    }
}

/// `GET /v1/health` (§9).
struct WireHealth: Decodable {
    let status: String
}
