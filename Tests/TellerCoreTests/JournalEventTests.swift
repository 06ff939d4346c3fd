import Foundation
import Testing
import TellerCore

/// A journal entry's payload is what is hashed and exported: compact JSON,
/// keys in byte order, any text escaped so that it parses back as itself.
@Suite struct JournalEventTests {
    static let maria = OperatorID("1001")!

    @Test func thePayloadIsCompactSortedJSON() {
        let event = JournalEvent(kind: .print, operatorID: Self.maria,
                                 details: ["b": .integer(-42), "a": .bool(true), "Z": .text("x"), "é": .text("y")])
        #expect(event.payload == #"{"Z":"x","a":true,"b":-42,"é":"y"}"#)
        #expect(JournalEvent(kind: .signOut, operatorID: Self.maria).payload == "{}")
    }

    @Test func anyTextParsesBackAsItself() throws {
        let awkward = "quote \" backslash \\ slash / newline \n tab \t bell \u{07} nul \u{00} del \u{7F} arabic مرحبا emoji 🏦"
        let event = JournalEvent(kind: .supervisorApproval, operatorID: Self.maria, supervisorID: OperatorID("2002")!,
                                 details: ["note": .text(awkward), awkward: .integer(1)])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(event.payload.utf8)) as? [String: Any])
        #expect(parsed["note"] as? String == awkward)
        #expect(parsed[awkward] as? Int == 1)
        #expect(!event.payload.contains("\n"), "one line: \(event.payload)")
    }

    /// The bytes themselves, not only what a parser makes of them: every
    /// entry's hash is over them, so an escape written another way (a
    /// slash escaped, `\u001B` for `\u001b`) would break the chain's
    /// second oracle and every exported day that was verified before.
    @Test func escapedTextHasItsExactBytes() {
        let event = JournalEvent(kind: .print, operatorID: Self.maria,
                                 details: ["t": .text("q\"b\\n\nt\tc\u{07}e\u{1B}/\u{7F}é\r\u{08}\u{0C}"), "plain": .text("DE89 é/")])
        #expect(event.payload == #"{"plain":"DE89 é/","t":"q\"b\\n\nt\tc\u0007e\u001b/\#u{7F}é\r\b\f"}"#)
    }

    @Test func everyKindHasItsStoredWord() {
        #expect(JournalKind.allCases.map(\.rawValue) == ["sign_in", "sign_out", "till_opened", "till_closed", "payment_enqueued",
                                                         "payment_confirmed", "payment_rejected", "void", "reversal",
                                                         "supervisor_approval", "print", "checkpoint"])
        #expect(VoidReason.allCases.map(\.rawValue) == ["wrong_amount", "wrong_account", "customer_cancelled", "duplicate"])
    }

    @Test func aPaymentsEntryNamesItAndAReversalNamesTheFirst() throws {
        let request = try TransactionRequest(kind: .transfer, account: try IBAN("DE89370400440532013000"), counterparty: try IBAN("GB29NWBK60161331926819"),
                                             amount: Money(minorUnits: 2_500, currency: .eur), operatorID: Self.maria)
        let key = IdempotencyKey(rawValue: "0b6f3c52-8a43-4b8e-9d6a-3f1a2b4c5de1")!
        let first = OutboxEntry(id: 1, key: key, request: request, createdAt: Date(timeIntervalSince1970: 0), state: .queued)
        #expect(JournalEvent.enqueued(first).kind == .paymentEnqueued)
        #expect(JournalEvent.enqueued(first).payload
                == #"{"account":"DE89370400440532013000","amount":2500,"counterparty":"GB29NWBK60161331926819","currency":"EUR","key":"0b6f3c52-8a43-4b8e-9d6a-3f1a2b4c5de1","transaction":"transfer"}"#)
        let reversal = OutboxEntry(id: 2, key: .random(), request: request, createdAt: Date(timeIntervalSince1970: 0), state: .queued, reverses: key)
        #expect(JournalEvent.enqueued(reversal).kind == .reversal)
        #expect(JournalEvent.enqueued(reversal).payload.contains(#""reverses":"0b6f3c52-8a43-4b8e-9d6a-3f1a2b4c5de1""#))
        let void = JournalEvent.void(first, reason: .customerCancelled, by: OperatorID("2002")!)
        #expect(void.operatorID == OperatorID("2002")!)
        #expect(void.payload.contains(#""entered_by":"1001""#) && void.payload.contains(#""reason":"customer_cancelled""#))
    }
}
