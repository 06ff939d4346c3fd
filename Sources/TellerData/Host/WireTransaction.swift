import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import TellerCore

/// The body of `POST /v1/transactions` (docs/host-api.md). Encoded once at
/// enqueue and frozen in the outbox row: every retry sends these exact bytes.
struct WireTransaction: Codable, Equatable {
    let kind: String
    let accountIBAN: String
    /// Absent (not null) for deposits and withdrawals.
    let counterpartyIBAN: String?
    let amount: Int64
    let currency: String
    let operatorID: String
    let createdAt: String
    let clientReference: String
    /// True (and only then present) when the terminal's clock was below its
    /// trusted floor and `created_at` comes from the floor (docs/host-api.md §6).
    let clockUnverified: Bool?
    /// The idempotency key of the posted payment this one reverses
    /// (docs/host-api.md §6); absent for an ordinary payment.
    let reverses: String?
    /// The supervisor who approved it over a counter limit (docs/host-api.md
    /// §6); absent when none had to.
    let approvedBy: String?

    enum CodingKeys: String, CodingKey {
        case kind, amount, currency
        case accountIBAN = "account_iban"
        case counterpartyIBAN = "counterparty_iban"
        case operatorID = "operator_id"
        case createdAt = "created_at"
        case clientReference = "client_reference"
        case clockUnverified = "clock_unverified"
        case reverses
        case approvedBy = "approved_by"
    }

    init(_ request: TransactionRequest, key: IdempotencyKey, createdAt: Date, clockUnverified: Bool = false, reverses: IdempotencyKey? = nil) {
        self.init(kind: request.kind.rawValue, accountIBAN: request.account.electronic, counterpartyIBAN: request.counterparty?.electronic,
                  amount: request.amount.minorUnits, currency: request.amount.currency.code, operatorID: request.operatorID.rawValue,
                  createdAt: WireTransaction.timestamp(createdAt), clientReference: key.receiptNumber,
                  clockUnverified: clockUnverified ? true : nil, reverses: reverses?.rawValue, approvedBy: request.approvedBy?.rawValue)
    }

    /// Every field as given; the encoder tests also feed it text no request could hold.
    init(kind: String, accountIBAN: String, counterpartyIBAN: String?, amount: Int64, currency: String, operatorID: String,
         createdAt: String, clientReference: String, clockUnverified: Bool?, reverses: String? = nil, approvedBy: String? = nil) {
        self.kind = kind
        self.accountIBAN = accountIBAN
        self.counterpartyIBAN = counterpartyIBAN
        self.amount = amount
        self.currency = currency
        self.operatorID = operatorID
        self.createdAt = createdAt
        self.clientReference = clientReference
        self.clockUnverified = clockUnverified
        self.reverses = reverses
        self.approvedBy = approvedBy
    }

    /// The frozen bytes: the bytes `JSONEncoder` with `.sortedKeys` and
    /// `.withoutEscapingSlashes` makes of this struct (the members in key
    /// order, absent optionals left out), written by hand because
    /// JSONEncoder (boxing every value, then sorting the keys) cost about as
    /// much CPU as the insert itself. WireTransactionEncodingTests holds the
    /// two to the same bytes, so rows frozen before and after are alike.
    func encoded() -> [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(256)
        json.appendMember(.accountIBAN, string: accountIBAN)
        json.appendMember(.amount, integer: amount)
        if let approvedBy { json.appendMember(.approvedBy, string: approvedBy) }
        json.appendMember(.clientReference, string: clientReference)
        if let clockUnverified { json.appendMember(.clockUnverified, bool: clockUnverified) }
        if let counterpartyIBAN { json.appendMember(.counterpartyIBAN, string: counterpartyIBAN) }
        json.appendMember(.createdAt, string: createdAt)
        json.appendMember(.currency, string: currency)
        json.appendMember(.kind, string: kind)
        json.appendMember(.operatorID, string: operatorID)
        if let reverses { json.appendMember(.reverses, string: reverses) }
        json[json.count - 1] = UInt8(ascii: "}")
        return json
    }

    /// RFC 3339 in UTC with milliseconds: "2026-11-29T13:59:40.123Z".
    /// Built by hand because Foundation's formatters cost more than the commit.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        text.appendDigits(Int64(parts.tm_year) + 1900, width: 4)
        text.append(UInt8(ascii: "-"))
        text.appendDigits(Int64(parts.tm_mon) + 1, width: 2)
        text.append(UInt8(ascii: "-"))
        text.appendDigits(Int64(parts.tm_mday), width: 2)
        text.append(UInt8(ascii: "T"))
        text.appendDigits(Int64(parts.tm_hour), width: 2)
        text.append(UInt8(ascii: ":"))
        text.appendDigits(Int64(parts.tm_min), width: 2)
        text.append(UInt8(ascii: ":"))
        text.appendDigits(Int64(parts.tm_sec), width: 2)
        text.append(UInt8(ascii: "."))
        text.appendDigits(milliseconds.positiveRemainder(dividingBy: 1000), width: 3)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }
}

/// The pieces of the frozen body that ``WireTransaction/encoded()`` writes, as JSONEncoder wrote them.
private extension [UInt8] {
    /// `"key":value,` (the caller turns the last comma into the closing brace).
    mutating func appendMember(_ key: WireTransaction.CodingKeys, string value: String) {
        appendKey(key)
        appendString(value)
        append(UInt8(ascii: ","))
    }

    mutating func appendMember(_ key: WireTransaction.CodingKeys, integer value: Int64) {
        appendKey(key)
        append(contentsOf: String(value).utf8)
        append(UInt8(ascii: ","))
    }

    mutating func appendMember(_ key: WireTransaction.CodingKeys, bool value: Bool) {
        appendKey(key)
        append(contentsOf: (value ? "true" : "false").utf8)
        append(UInt8(ascii: ","))
    }

    mutating func appendKey(_ key: WireTransaction.CodingKeys) {
        appendString(key.stringValue)
        append(UInt8(ascii: ":"))
    }

    /// A JSON string as JSONEncoder escapes it: the quote, the backslash and
    /// the C0 controls (short forms where JSON has them, else `\u00xx` in
    /// lower case); everything else, `/` and non-ASCII included, as its UTF-8.
    mutating func appendString(_ value: String) {
        append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): appendEscape(byte)
            case 0x08: appendEscape(UInt8(ascii: "b"))
            case 0x09: appendEscape(UInt8(ascii: "t"))
            case 0x0A: appendEscape(UInt8(ascii: "n"))
            case 0x0C: appendEscape(UInt8(ascii: "f"))
            case 0x0D: appendEscape(UInt8(ascii: "r"))
            case 0x00..<0x20:
                appendEscape(UInt8(ascii: "u"))
                append(contentsOf: "00".utf8)
                append(hexDigit(byte >> 4))
                append(hexDigit(byte & 0xF))
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    mutating func appendEscape(_ letter: UInt8) {
        append(UInt8(ascii: "\\"))
        append(letter)
    }

    func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `value` (a date or time field, never negative) in decimal, zero-padded
    /// to `width` digits. Not TellerCore's `zeroPadded`, which makes a
    /// String per field: created_at is written at every enqueue, and its
    /// digits through Strings were 2% of the enqueue's CPU samples in perf.
    mutating func appendDigits(_ value: Int64, width: Int) {
        let start = count
        var rest = value.magnitude
        repeat {
            append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0 || count - start < width
        self[start...].reverse()
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let (q, r) = quotientAndRemainder(dividingBy: divisor)
        return r < 0 ? q - 1 : q
    }

    func positiveRemainder(dividingBy divisor: Int64) -> Int64 {
        let r = self % divisor
        return r < 0 ? r + divisor : r
    }
}
