import Foundation
import Testing
import TellerCore
@testable import TellerData

/// The frozen body is written by hand (``WireTransaction/encoded()``); rows
/// frozen earlier were written by JSONEncoder. Both must be the same bytes,
/// or a terminal updated with rows in its queue would hold two spellings of
/// one contract. JSONEncoder, as the outbox used it, is the reference here.
@Suite struct WireTransactionEncodingTests {
    /// What enqueue froze before the body was written by hand.
    static func jsonEncoderBytes(_ wire: WireTransaction) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(wire))
    }

    static let accounts = ["DE89370400440532013000", "GB29NWBK60161331926819", "NO9386011117947", "DE54500105170426397158"].map { try! IBAN($0) }
    static let operators = ["1001", "0000", "12345678"].map { OperatorID($0)! }
    static let currencies = ["EUR", "GBP", "CHF", "JPY", "KWD", "ISK"].map { Currency(code: $0)! }
    static let amounts: [Int64] = [1, 9, 10, 99, 100, 12_345, 100_000, 1 << 31, 999_999_999_999, Int64.max]
    static let times: [Date] = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: 1_795_000_000.999),
        Date(timeIntervalSince1970: 1_795_000_000.0005), Date(timeIntervalSince1970: 951_782_400), // 2000-02-29
        Date(timeIntervalSince1970: 253_402_300_799.999), // 9999-12-31T23:59:59.999Z
    ]

    @Test func everyRequestEncodesAsJSONEncoderEncodedIt() throws {
        var checked = 0
        for kind in TransactionKind.allCases {
            for (index, account) in Self.accounts.enumerated() {
                let counterparty = kind == .transfer ? Self.accounts[(index + 1) % Self.accounts.count] : nil
                for amount in Self.amounts {
                    let currency = Self.currencies[checked % Self.currencies.count]
                    let request = try TransactionRequest(kind: kind, account: account, counterparty: counterparty,
                                                         amount: Money(minorUnits: amount, currency: currency),
                                                         operatorID: Self.operators[checked % Self.operators.count])
                    for unverified in [false, true] {
                        let wire = WireTransaction(request, key: .random(), createdAt: Self.times[checked % Self.times.count], clockUnverified: unverified)
                        let encoded = try Self.jsonEncoderBytes(wire)
                        #expect(wire.encoded() == encoded, "\(String(decoding: wire.encoded(), as: UTF8.self))")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 3 * 4 * 10 * 2)
    }

    /// Text no request can hold today (IBANs, codes and ids are plain
    /// ASCII), so that a field that one day carries a name cannot break the
    /// body: every C0 control, quotes, backslashes, slashes, and non-ASCII
    /// text of several scripts, combining marks and emoji included.
    @Test func anyTextEncodesAsJSONEncoderEncodedIt() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let texts = [
            "", controls, "\"", "\\", "/", "a/b\\c\"d", "\u{7F}", "Zoë Ærøskøbing", "Łódź", "Müller-Lüdenscheidt",
            "e\u{301}", "株式会社", "مرحبا", "שלום", "😀👩‍👩‍👧", "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFF}", "tab\there", "line\r\nbreak",
        ]
        for (index, text) in texts.enumerated() {
            for amount: Int64 in [0, -1, Int64.min, Int64(index)] {
                let wire = WireTransaction(kind: text, accountIBAN: text, counterpartyIBAN: index.isMultiple(of: 2) ? text : nil, amount: amount,
                                           currency: text, operatorID: text, createdAt: text, clientReference: text,
                                           clockUnverified: [nil, true, false][index % 3])
                let encoded = try Self.jsonEncoderBytes(wire)
                #expect(wire.encoded() == encoded, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
                #expect(try JSONDecoder().decode(WireTransaction.self, from: Data(wire.encoded())) == wire)
            }
        }
    }

    /// The exact body for one transfer, spelled out: a change to both
    /// encoders at once (a new Foundation, say) would still show here.
    @Test func aTransferEncodesToTheseBytes() throws {
        let request = try TransactionRequest(kind: .transfer, account: Self.accounts[0], counterparty: Self.accounts[1],
                                             amount: Money(minorUnits: 12_345, currency: .eur), operatorID: Self.operators[0])
        let key = try #require(IdempotencyKey(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        let wire = WireTransaction(request, key: key, createdAt: Date(timeIntervalSince1970: 1_795_000_000.125), clockUnverified: true)
        #expect(String(decoding: wire.encoded(), as: UTF8.self) == """
            {"account_iban":"DE89370400440532013000","amount":12345,"client_reference":"E621E1F8","clock_unverified":true,\
            "counterparty_iban":"GB29NWBK60161331926819","created_at":"2026-11-18T11:06:40.125Z","currency":"EUR",\
            "kind":"transfer","operator_id":"1001"}
            """)
    }

    /// `created_at` as the formatted-by-pieces version wrote it (these are its outputs).
    @Test func timestampsAreRFC3339InUTCWithMilliseconds() {
        let expected: [(TimeInterval, String)] = [
            (0, "1970-01-01T00:00:00.000Z"), (-0.5, "1969-12-31T23:59:59.500Z"), (951_782_400, "2000-02-29T00:00:00.000Z"),
            (253_402_300_799.5, "9999-12-31T23:59:59.500Z"), (1_795_000_000.125, "2026-11-18T11:06:40.125Z"),
        ]
        for (seconds, text) in expected {
            #expect(WireTransaction.timestamp(Date(timeIntervalSince1970: seconds)) == text)
        }
    }
}
