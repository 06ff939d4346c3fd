import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

extension TillViewModel.Phase {
    var openTill: TillSession? {
        if case .open(let till) = self { return till }
        return nil
    }

    var closedTill: TillSession? {
        if case .closed(let till) = self { return till }
        return nil
    }
}

/// The till screen and a supervisor's approval on the operator's screen, on fakes.
@MainActor
@Suite struct TillAndApprovalTests {
    func tillScreen(_ h: FeatureHarness) async throws -> TillViewModel {
        await h.signIn()
        h.coordinator.current.home?.openTill()
        await h.coordinator.settle()
        return try #require(h.coordinator.current.till, "not on the till: \(h.coordinator.current.screenName)")
    }

    /// Types `pieces` for each denomination through the row taps and the keypad.
    func count(_ model: TillViewModel, _ pieces: [Int64: Int]) {
        for (denomination, number) in pieces {
            model.select(denomination)
            for digit in String(number) { model.press(digit: digit) }
        }
    }

    func supervisorSigns(_ h: FeatureHarness, id: String, pin: String) async throws -> SignInViewModel {
        let approval = try #require(h.coordinator.current.signIn, "not on the approval: \(h.coordinator.current.screenName)")
        #expect(approval.screenName == "approval")
        for digit in id { approval.press(digit: digit) }
        await approval.enter()
        for digit in pin { approval.press(digit: digit) }
        await approval.enter()
        await h.coordinator.settle()
        return approval
    }

    @Test func openWithAFloatSeeThePositionAndCloseBalanced() async throws {
        let h = FeatureHarness()
        let model = try await tillScreen(h)
        #expect(model.phase == .opening)
        count(model, [5000: 2, 200: 5])
        #expect(model.countTotalText == "Counted: 110.00 EUR")
        #expect(model.countLines.first { $0.denomination == 5000 }?.total == "100.00 EUR")
        await model.open()
        let till = try #require(model.phase.openTill, "not open: \(model.phase)")
        #expect(till.position == FeatureHarness.eur(11_000))
        await h.till.recordCash(FeatureHarness.eur(2_000), for: till.operatorID, deposit: true)
        model.startClose()
        count(model, [5000: 2, 1000: 2, 200: 5])
        await model.close()
        await h.coordinator.settle()
        #expect(model.refusal == nil)
        let closed = try #require(model.phase.closedTill, "not closed: \(model.phase)")
        #expect(closed.closing?.overShort == FeatureHarness.eur(0))
        #expect(model.summary.map(\.label).contains("Balanced"))
    }

    @Test func aShortCloseNeedsAnotherSupervisorWhoSignsOnTheSameScreen() async throws {
        let h = FeatureHarness()
        let model = try await tillScreen(h)
        count(model, [5000: 2])
        await model.open()
        model.startClose()
        count(model, [5000: 1, 2000: 2])
        await model.close()
        #expect(model.refusal == "The drawer is 10.00 EUR short, more than the 1.00 EUR allowed: a supervisor must approve.")
        #expect(model.approvalNeeded == FeatureHarness.eur(-1_000))
        model.callSupervisor()
        await h.coordinator.settle()
        // The operator cannot approve their own close: refused as the number is entered, before any PIN.
        let own = try #require(h.coordinator.current.signIn)
        for digit in "1001" { own.press(digit: digit) }
        await own.enter()
        #expect(own.message == "Nobody can approve the close of their own till. Another supervisor must sign.")
        #expect(own.step == .operatorID && own.operatorFieldText.isEmpty, "no PIN is asked for")
        own.back()
        #expect(h.coordinator.current.till === model)
        model.callSupervisor()
        await h.coordinator.settle()
        _ = try await supervisorSigns(h, id: "2001", pin: "2468")
        let result = try #require(h.coordinator.current.till)
        let closed = try #require(result.phase.closedTill, "not closed: \(result.phase)")
        #expect(closed.closing?.approvedBy == OperatorID("2001"))
        // By name and number, as the approval named the supervisor.
        #expect(result.summary.contains { $0.label == "Approved by" && $0.value == "Jonas Weber (2001)" })
        #expect(h.coordinator.routes == [.home, .tillClosed(closed, approver: Operator(id: OperatorID("2001")!, displayName: "Jonas Weber"))])
    }

    @Test func aPaymentOverTheCounterLimitGoesToReviewApprovedButAnOfflineLimitOffersNoSupervisor() async throws {
        let h = FeatureHarness()
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: h.snapshot(asOf: h.clock.now()), for: FeatureHarness.account)
        h.coordinator.push(.account(FeatureHarness.account))
        h.coordinator.push(.amount(FeatureHarness.account, .deposit))
        await h.coordinator.settle()
        let amount = try #require(h.coordinator.current.amount)
        for digit in "1500000" { amount.press(digit: digit) }
        await amount.reviewTransaction()
        #expect(amount.refusal == "Over the per-transaction limit of 10,000.00 EUR.")
        #expect(amount.approvable != nil)
        amount.callSupervisor()
        await h.coordinator.settle()
        _ = try await supervisorSigns(h, id: "2001", pin: "2468")
        let review = try #require(h.coordinator.current.review, "not on review: \(h.coordinator.current.screenName)")
        #expect(review.request.approvedBy == OperatorID("2001"))
        #expect(review.lines.last?.label == "Approved by")
        #expect(review.lines.last?.value == "Jonas Weber (2001)", "the supervisor by name, as their approval named them")
        await review.confirm()
        await h.coordinator.settle()
        #expect(h.coordinator.current.receipt != nil)

        // Offline, 3,000.00 is over the offline limit: no supervisor is offered.
        await h.sync.setOnline(false)
        h.coordinator.popToHome()
        h.coordinator.push(.amount(FeatureHarness.account, .deposit))
        await h.coordinator.settle()
        let offline = try #require(h.coordinator.current.amount)
        for digit in "300000" { offline.press(digit: digit) }
        await offline.reviewTransaction()
        #expect(offline.refusal?.hasPrefix("Over the offline limit") == true)
        #expect(offline.approvable == nil)
    }
}

/// Void and reversal from the receipt, on fakes.
@MainActor
@Suite struct VoidAndReversalScreenTests {
    func receipt(_ h: FeatureHarness) async throws -> ReceiptViewModel {
        await h.signIn()
        let entry = try await h.outbox.enqueue(try TransactionRequest(kind: .deposit, account: FeatureHarness.account,
                                                                      amount: FeatureHarness.eur(2_500), operatorID: OperatorID("1001")!))
        h.coordinator.push(.receipt(entry))
        await h.coordinator.settle()
        return try #require(h.coordinator.current.receipt)
    }

    @Test func aQueuedPaymentIsVoidedOnlyByAReasonAndItsConfirmation() async throws {
        let h = FeatureHarness(withPrinter: true)
        let model = try await receipt(h)
        #expect(model.canVoid && !model.canReverse && model.canReprint)
        model.startVoid()
        #expect(model.choosingVoidReason && model.selectedVoidReason == nil)
        // Nothing voids until a reason is picked and confirmed; the reason can be changed.
        await model.confirmVoid()
        #expect(await h.outbox.rows.first?.state == .queued)
        model.selectVoidReason(.duplicate)
        model.selectVoidReason(.wrongAmount)
        #expect(await h.outbox.rows.first?.state == .queued, "picking a reason voids nothing")
        await model.confirmVoid()
        #expect(model.status == .voided(.wrongAmount))
        #expect(model.statusTitle == "Voided")
        #expect(model.statusDetail.contains("Wrong amount"))
        #expect(model.canReprint == false, "a voided payment's receipt is not printed again")
        #expect(!model.canVoid && !model.choosingVoidReason)
        #expect(await h.outbox.rows.first?.state == .voided(reason: .wrongAmount))
    }

    @Test func keepItLeavesThePaymentAndTheRowLeavingClosesTheVoidPanel() async throws {
        let h = FeatureHarness()
        let model = try await receipt(h)
        model.startVoid()
        model.selectVoidReason(.duplicate)
        model.cancelVoid()
        #expect(!model.choosingVoidReason && model.selectedVoidReason == nil && model.canVoid)
        #expect(await h.outbox.rows.first?.state == .queued)

        // The engine starts sending it while the reasons are open: the offer goes at once.
        model.startVoid()
        model.selectVoidReason(.duplicate)
        await model.handle(.sending(model.entry.key))
        #expect(!model.choosingVoidReason && !model.canVoid)
        await model.confirmVoid()
        #expect(await h.outbox.rows.first?.state == .queued, "nothing voided after the row left")
    }

    /// The terminal still trying to reach the bank (nothing left yet): the
    /// refusal says so, and Void stays offered, for it can succeed later.
    @Test func aVoidRefusedWhileStillConnectingIsOfferedAgain() async throws {
        let h = FeatureHarness()
        let model = try await receipt(h)
        await h.outbox.setStillConnecting(model.entry.key, true)
        model.startVoid()
        model.selectVoidReason(.customerCancelled)
        await model.confirmVoid()
        #expect(model.undoMessage == "The terminal is still trying to reach the bank with this payment. Nothing has been sent yet: try Void again in a moment.")
        #expect(await h.outbox.rows.first?.state == .queued)
        #expect(model.canVoid && !model.canReverse, "Void is offered again")

        // Once the row leaves, or the bank answers, "still trying" is stale.
        let next = try await h.outbox.enqueue(try TransactionRequest(kind: .deposit, account: FeatureHarness.account,
                                                                     amount: FeatureHarness.eur(3_000), operatorID: OperatorID("1001")!))
        h.coordinator.push(.receipt(next))
        await h.coordinator.settle()
        let second = try #require(h.coordinator.current.receipt)
        await h.outbox.setStillConnecting(second.entry.key, true)
        second.startVoid()
        second.selectVoidReason(.duplicate)
        await second.confirmVoid()
        #expect(second.undoMessage != nil && second.canVoid)
        await second.handle(.sending(second.entry.key))
        #expect(second.undoMessage == nil && !second.canVoid)

        await h.outbox.setStillConnecting(model.entry.key, false)
        model.startVoid()
        model.selectVoidReason(.customerCancelled)
        await model.confirmVoid()
        #expect(model.status == .voided(.customerCancelled))
        #expect(await h.outbox.rows.first?.state == .voided(reason: .customerCancelled))
    }

    @Test func aPaymentBeingSentIsRefusedAndAPostedOneOffersAReversal() async throws {
        let h = FeatureHarness()
        let model = try await receipt(h)
        await h.outbox.setState(model.entry.key, .sending)
        model.startVoid()
        model.selectVoidReason(.duplicate)
        await model.confirmVoid()
        #expect(model.undoMessage == "This payment is being sent to the bank and can no longer be voided.")
        #expect(await h.outbox.rows.first?.state == .sending)
        #expect(!model.canReverse)
        #expect(!model.canVoid, "a refused void is not offered again")

        // Posted while the screen still said Queued: the refusal offers the reversal.
        let next = try await h.outbox.enqueue(try TransactionRequest(kind: .deposit, account: FeatureHarness.account,
                                                                     amount: FeatureHarness.eur(3_000), operatorID: OperatorID("1001")!))
        h.coordinator.push(.receipt(next))
        await h.coordinator.settle()
        let second = try #require(h.coordinator.current.receipt)
        await h.outbox.setState(second.entry.key, .confirmed(reference: "H-1"))
        second.startVoid()
        second.selectVoidReason(.duplicate)
        await second.confirmVoid()
        #expect(second.undoMessage?.contains("a reversal can undo it") == true)
        #expect(second.canReverse && !second.canVoid)
        await second.reverse()
        await h.coordinator.settle()
        let reversal = try #require(h.coordinator.current.receipt)
        #expect(reversal.entry.reverses == second.entry.key)
        #expect(reversal.entry.request.kind == .withdrawal)
    }
}
