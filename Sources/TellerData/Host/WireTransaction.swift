import Foundation
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

    enum CodingKeys: String, CodingKey {
        case kind, amount, currency
        case accountIBAN = "account_iban"
        case counterpartyIBAN = "counterparty_iban"
        case operatorID = "operator_id"
        case createdAt = "created_at"
        case clientReference = "client_reference"
        case clockUnverified = "clock_unverified"
    }

    init(_ request: TransactionRequest, key: IdempotencyKey, createdAt: Date, clockUnverified: Bool = false) {
        kind = request.kind.rawValue
        accountIBAN = request.account.electronic
        counterpartyIBAN = request.counterparty?.electronic
        amount = request.amount.minorUnits
        currency = request.amount.currency.code
        operatorID = request.operatorID.rawValue
        self.createdAt = WireTransaction.timestamp(createdAt)
        clientReference = key.receiptNumber
        self.clockUnverified = clockUnverified ? true : nil
    }

    /// The frozen bytes: sorted keys so the same transaction always encodes the same.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and integers cannot fail.
        return Array(try! encoder.encode(self))
    }

    /// RFC 3339 in UTC with milliseconds: "2026-11-29T13:59:40.123Z".
    /// Built by hand because Foundation's formatters cost more than the commit.
    static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds.positiveRemainder(dividingBy: 1000)), 3))Z"
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
