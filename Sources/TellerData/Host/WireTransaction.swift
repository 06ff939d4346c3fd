import Foundation
import TellerCore

/// The body of `POST /v1/transactions` (docs/host-api.md). Encoded once at
/// enqueue and frozen in the outbox row: every retry sends these exact bytes.
struct WireTransaction: Codable, Equatable {
    let kind: String
    let account: String
    let counterparty: String?
    let amountMinor: Int64
    let currency: String
    let operatorID: String
    let createdAt: String
    let clientReference: String

    enum CodingKeys: String, CodingKey {
        case kind, account, counterparty, currency
        case amountMinor = "amount_minor"
        case operatorID = "operator_id"
        case createdAt = "created_at"
        case clientReference = "client_reference"
    }

    init(_ request: TransactionRequest, key: IdempotencyKey, createdAt: Date) {
        kind = request.kind.rawValue
        account = request.account.electronic
        counterparty = request.counterparty?.electronic
        amountMinor = request.amount.minorUnits
        currency = request.amount.currency.code
        operatorID = request.operatorID.rawValue
        self.createdAt = WireTransaction.timestamp(createdAt)
        clientReference = key.rawValue
    }

    /// The frozen bytes: sorted keys so the same transaction always encodes the same.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and integers cannot fail.
        return Array(try! encoder.encode(self))
    }

    static func timestamp(_ date: Date) -> String {
        var format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        format.timeZone = TimeZone(identifier: "UTC")!
        return date.formatted(format)
    }
}
