import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

@MainActor
@Suite struct TransactionFlowTests {
    func amountScreen(_ h: FeatureHarness, kind: TransactionKind, account: IBAN = FeatureHarness.account) async -> AmountEntryViewModel? {
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: h.snapshot(account, asOf: h.clock.now()), for: account)
        h.coordinator.push(.account(account))
        await h.coordinator.settle()
        h.coordinator.push(.amount(account, kind))
        await h.coordinator.settle()
        return h.coordinator.current.amount
    }

    @Test func cashRegisterKeypad() async throws {
        let h = FeatureHarness()
        let model = try #require(await amountScreen(h, kind: .deposit))
        #expect(model.amountText == "0.00 EUR")
        for d in "12345" { model.press(digit: d) }
        #expect(model.amountText == "123.45 EUR")
        model.pressDoubleZero()
        #expect(model.amountText == "12,345.00 EUR")
        model.backspace()
        #expect(model.amountText == "1,234.50 EUR")
        #expect(model.limitLines == ["Per transaction: 10,000.00 EUR", "Left today: 50,000.00 EUR"])
    }

    @Test func depositFlowEndsOnAQueuedReceiptThatTurnsConfirmed() async throws {
        let h = FeatureHarness()
        let model = try #require(await amountScreen(h, kind: .deposit))
        for d in "5000" { model.press(digit: d) }
        await model.reviewTransaction()
        let review = try #require(h.coordinator.current.review, "the review screen is not on top: \(h.coordinator.current.screenName)")
        #expect(review.lines.map(\.value).contains("50.00 EUR"))
        #expect(review.lines.last?.value == "Maria Keller (1001)")
        await review.confirm()
        let receipt = try #require(h.coordinator.current.receipt, "the receipt screen is not on top: \(h.coordinator.current.screenName)")
        #expect(receipt.statusTitle == "Queued")
        #expect(h.coordinator.routes.count == 4, "home, account, amount, receipt: review was replaced")
        #expect(!h.coordinator.routes.contains { if case .review = $0 { true } else { false } })
        await h.sync.send(.confirmed(receipt.entry.key, reference: "H20261129-0000042"))
        try await waitUntil { receipt.statusTitle == "Confirmed" }
        #expect(receipt.statusDetail == "Posted by the bank. Reference H20261129-0000042.")
        receipt.done()
        #expect(h.coordinator.routes == [.home])
    }

    @Test func rejectedReceiptShowsTheReason() async throws {
        let h = FeatureHarness()
        let model = try #require(await amountScreen(h, kind: .withdrawal, account: FeatureHarness.lowBalance))
        for d in "10000" { model.press(digit: d) }
        await model.reviewTransaction()
        let review = try #require(h.coordinator.current.review, "the review screen is not on top: \(h.coordinator.current.screenName)")
        await review.confirm()
        let receipt = try #require(h.coordinator.current.receipt, "the receipt screen is not on top: \(h.coordinator.current.screenName)")
        await h.sync.send(.rejected(receipt.entry.key, reason: "insufficient_funds"))
        try await waitUntil { receipt.statusTitle == "Rejected" }
        #expect(receipt.statusDetail == "The bank refused it: Insufficient funds. The customer's money did not move.")
    }

    @Test func offlineWithdrawalOverTheOfflineLimitIsRefusedNamingTheLimit() async throws {
        let h = FeatureHarness(online: false)
        let model = try #require(await amountScreen(h, kind: .withdrawal))
        await h.outbox.setKnownAvailable(FeatureHarness.eur(1_250_000), for: FeatureHarness.account)
        await model.load()
        #expect(model.limitLines.contains("Offline per transaction: 2,000.00 EUR"))
        for d in "200001" { model.press(digit: d) }
        await model.reviewTransaction()
        #expect(model.refusal == "Over the offline limit of 2,000.00 EUR per transaction.")
        #expect(h.coordinator.current.screenName == "amount")
    }

    @Test func offlineWithdrawalIsCheckedAgainstKnownAvailableMinusPendingDebits() async throws {
        let h = FeatureHarness(online: false)
        let model = try #require(await amountScreen(h, kind: .withdrawal))
        await h.outbox.setKnownAvailable(FeatureHarness.eur(15_000), for: FeatureHarness.account)
        _ = try await h.outbox.enqueue(TransactionRequest(kind: .withdrawal, account: FeatureHarness.account, amount: FeatureHarness.eur(10_000), operatorID: OperatorID("1001")!))
        for d in "5001" { model.press(digit: d) }
        await model.reviewTransaction()
        #expect(model.refusal == "Over the last known available balance minus queued debits: 50.00 EUR can be paid out.")
        #expect(model.limitLines.last == "Withdrawable (last known, minus queued): 50.00 EUR")
    }

    @Test func transferNeedsAValidRecipient() async throws {
        let h = FeatureHarness()
        let model = try #require(await amountScreen(h, kind: .transfer))
        for d in "100" { model.press(digit: d) }
        await model.reviewTransaction()
        #expect(model.refusal == "Recipient: Enter an IBAN.")
        model.focus(.recipient)
        #expect(model.recipientValidationText == "Enter the recipient's IBAN.")
        for c in "ES91" { model.type(c) }
        #expect(model.recipientValidationText == "ES IBAN: 20 more characters (24 in all).")
        for c in "21000418450200051332" { model.type(c) }
        #expect(model.recipientValidationText == "Valid IBAN")
        await model.reviewTransaction()
        let review = try #require(h.coordinator.current.review, "the review screen is not on top: \(h.coordinator.current.screenName)")
        #expect(review.lines.contains(ReviewViewModel.Line(label: "To", value: "ES91 2100 0418 4502 0005 1332")))
    }
}

/// The amount field never changes an amount without a word.
@MainActor
@Suite struct AmountEntryRefusalTests {
    func amountScreen(_ h: FeatureHarness) async throws -> AmountEntryViewModel {
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: h.snapshot(FeatureHarness.account, asOf: h.clock.now()), for: FeatureHarness.account)
        h.coordinator.push(.amount(FeatureHarness.account, .deposit))
        await h.coordinator.settle()
        return try #require(h.coordinator.current.amount, "the amount screen is not on top: \(h.coordinator.current.screenName)")
    }

    @Test func aDigitPastTheMaximumIsRefusedOnScreenAndReviewWaits() async throws {
        let h = FeatureHarness()
        let model = try await amountScreen(h)
        for d in "123456789012" { model.press(digit: d) }
        #expect(model.amountText == "1,234,567,890.12 EUR")
        #expect(model.refusal?.hasPrefix("Over the per-transaction limit") == true, "over the limit at once: \(model.refusal ?? "nil")")
        model.press(digit: "3")
        #expect(model.amountText == "1,234,567,890.12 EUR", "the extra digit is not taken")
        #expect(model.refusal?.hasPrefix("At most 12 digits") == true, "\(model.refusal ?? "nil")")
        await model.reviewTransaction()
        #expect(h.coordinator.current.screenName == "amount", "no review with a refused digit on screen")
    }

    @Test func typedTextOverTheMaximumNeverReachesReviewTruncated() async throws {
        let h = FeatureHarness()
        let model = try await amountScreen(h)
        // What `teller ctl type 9223372036854775807999` delivers: one key at a time.
        for d in "9223372036854775807999" { model.press(digit: d) }
        await model.reviewTransaction()
        #expect(h.coordinator.current.screenName == "amount")
        #expect(model.refusal?.hasPrefix("At most 12 digits") == true, "\(model.refusal ?? "nil")")
        // Correcting it (deleting back to a real amount) lets the operator go on.
        for _ in 0..<12 { model.backspace() }
        for d in "2500" { model.press(digit: d) }
        #expect(model.refusal == nil)
        await model.reviewTransaction()
        #expect(h.coordinator.current.screenName == "review")
    }

    @Test func theFieldSaysOverTheLimitAsSoonAsTheAmountIs() async throws {
        let h = FeatureHarness()
        let model = try await amountScreen(h)
        for d in "1000000" { model.press(digit: d) }
        #expect(model.refusal == nil, "10,000.00 EUR is exactly the limit")
        model.press(digit: "1")
        #expect(model.refusal == "Over the per-transaction limit of 10,000.00 EUR.", "\(model.refusal ?? "nil")")
        model.backspace()
        #expect(model.refusal == nil)
    }
}
