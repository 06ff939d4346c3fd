import Foundation
import Testing
@testable import TellerCore

@Suite struct TransactionTests {
    let account = try! IBAN("DE89370400440532013000")
    let other = try! IBAN("GB29NWBK60161331926819")
    let op = OperatorID("1001")!
    let ten = Money(minorUnits: 1000, currency: .eur)

    @Test func kindsKnowWhetherTheyDebit() {
        #expect(!TransactionKind.deposit.isDebit)
        #expect(TransactionKind.withdrawal.isDebit)
        #expect(TransactionKind.transfer.isDebit)
    }

    @Test func transferNeedsADifferentRecipient() throws {
        #expect(throws: TransactionRuleError.missingRecipient) { try TransactionRequest(kind: .transfer, account: account, amount: ten, operatorID: op) }
        #expect(throws: TransactionRuleError.recipientIsSameAccount) { try TransactionRequest(kind: .transfer, account: account, counterparty: account, amount: ten, operatorID: op) }
        #expect(throws: TransactionRuleError.unexpectedRecipient(.deposit)) { try TransactionRequest(kind: .deposit, account: account, counterparty: other, amount: ten, operatorID: op) }
        _ = try TransactionRequest(kind: .transfer, account: account, counterparty: other, amount: ten, operatorID: op)
    }

    @Test func amountMustBePositive() {
        #expect(throws: TransactionRuleError.amountNotPositive) { try TransactionRequest(kind: .deposit, account: account, amount: .zero(.eur), operatorID: op) }
        #expect(throws: TransactionRuleError.amountNotPositive) { try TransactionRequest(kind: .deposit, account: account, amount: Money(minorUnits: -1, currency: .eur), operatorID: op) }
    }

    @Test func idempotencyKeysAreCanonicalUUIDs() {
        #expect(IdempotencyKey(rawValue: "not-a-uuid") == nil)
        let key = IdempotencyKey(rawValue: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(key?.rawValue == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(IdempotencyKey.random() != IdempotencyKey.random())
    }

    /// Fresh keys are canonical version-4 UUIDs (the host contract's form),
    /// never repeat, and every position that is not the version or the
    /// variant takes many values: all 122 random bits reach the text.
    @Test func randomKeysAreCanonicalVersion4UUIDs() {
        let keys = (0..<2_000).map { _ in IdempotencyKey.random() }
        #expect(Set(keys).count == keys.count)
        var seen = Array(repeating: Set<Character>(), count: 36)
        for key in keys {
            #expect(IdempotencyKey(rawValue: key.rawValue) == key, "canonical: \(key)")
            let text = Array(key.rawValue)
            #expect(text.count == 36 && [8, 13, 18, 23].allSatisfy { text[$0] == "-" }, "8-4-4-4-12: \(key)")
            #expect(text[14] == "4", "version 4: \(key)")
            #expect("89ab".contains(text[19]), "RFC 4122 variant: \(key)")
            for (position, character) in text.enumerated() { seen[position].insert(character) }
        }
        for position in 0..<36 where ![8, 13, 14, 18, 23].contains(position) {
            #expect(seen[position].count == (position == 19 ? 4 : 16), "position \(position) took \(seen[position].sorted())")
        }
    }

    @Test func operatorIDsAreShortAndPlain() {
        #expect(OperatorID("") == nil)
        #expect(OperatorID("10 01") == nil)
        #expect(OperatorID("123") == nil)
        #expect(OperatorID("123456789") == nil)
        #expect(OperatorID("10a1") == nil)
        #expect(OperatorID("12345678")?.rawValue == "12345678")
        #expect(OperatorID("1001")?.rawValue == "1001")
    }

    @Test func outboxStatesKnowWhatIsPending() {
        #expect(OutboxState.queued.isPending)
        #expect(OutboxState.sending.isPending)
        #expect(!OutboxState.confirmed(reference: "R1").isPending)
        #expect(OutboxState.rejected(reason: "insufficient_funds", acknowledged: false).kind == .rejected)
        #expect(OutboxState.needsReview(reason: "x", acknowledged: false).kind == .needsReview)
        #expect(OutboxState.Kind.allCases.filter(\.isPending) == [.queued, .sending])
    }

    /// The stored words: existing databases hold them and the schema's CHECK lists them.
    @Test func outboxStateKindsKeepTheirStoredWords() {
        #expect(OutboxState.Kind.allCases.map(\.rawValue) == ["queued", "sending", "confirmed", "rejected", "needsReview", "voided"])
    }

    @Test func loadStateCarriesFreshness() {
        let asOf = Date(timeIntervalSince1970: 1_000)
        let cached = LoadState<Int>.loaded(5, .cached(asOf: asOf))
        #expect(cached.value == 5)
        #expect(cached != LoadState<Int>.loaded(5, .fresh))
        #expect(LoadState<Int>.failed(.offline).value == nil)
    }
}
