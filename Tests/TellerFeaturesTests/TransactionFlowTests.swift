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
        guard case .amount(let model) = h.coordinator.current else { return nil }
        return model
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
        guard case .review(let review) = h.coordinator.current else { Issue.record("no review"); return }
        #expect(review.lines.map(\.value).contains("50.00 EUR"))
        #expect(review.lines.last?.value == "Maria Keller (1001)")
        await review.confirm()
        guard case .receipt(let receipt) = h.coordinator.current else { Issue.record("no receipt"); return }
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
        guard case .review(let review) = h.coordinator.current else { return }
        await review.confirm()
        guard case .receipt(let receipt) = h.coordinator.current else { return }
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
        #expect(h.coordinator.current.name == "amount")
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
        guard case .review(let review) = h.coordinator.current else { Issue.record("no review"); return }
        #expect(review.lines.contains(ReviewViewModel.Line(label: "To", value: "ES91 2100 0418 4502 0005 1332")))
    }
}
