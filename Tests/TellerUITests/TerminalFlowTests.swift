import Foundation
import TellerCore
import TellerFakes
import TellerFeatures
import TellerUI
import Testing
import Widgets

/// Whole flows through ``TerminalView``: taps by identifier, keyboard and
/// scanner text, raw touches; asserted on the view models and the tree.
@MainActor
@Suite struct TerminalFlowTests {
    @Test func depositFlowByTapsEndsQueuedThenConfirmed() async throws {
        let d = await TerminalDriver()
        await d.stockAccount()
        await d.key("1001", on: SignInScreen.Control.keypad)
        #expect(d.layout().node(withIdentifier: "sign-in.pin.enter")?.label == "Sign in")
        await d.key("1234", on: SignInScreen.Control.keypad)
        #expect(d.coordinator.current.screenName == "home")
        await d.tap(HomeScreen.Control.findAccount)
        await d.tap(FeatureHarness.account.electronic.map { "find-account.keys.\($0)" })
        #expect(d.layout().node(withIdentifier: "find-account.validation")?.label == "Valid IBAN")
        await d.tap(FindAccountScreen.Control.open)
        #expect(d.coordinator.current.screenName == "account")
        #expect(d.layout().node(withIdentifier: "account.balance")?.label == "12,480.25 EUR")
        await d.tap(AccountScreen.Control.deposit)
        await d.key("5000", on: AmountEntryScreen.Control.keys, enter: false)
        #expect(d.layout().node(withIdentifier: AmountEntryScreen.Control.amountField.rawValue)?.value == "50.00 EUR")
        await d.tap(AmountEntryScreen.Control.review)
        #expect(d.coordinator.current.screenName == "review")
        await d.tap(ReviewScreen.Control.confirm)
        let receipt = try #require(d.receipt)
        #expect(d.layout().node(withIdentifier: "receipt.status")?.label == "Queued")
        // The sync engine announces every enqueue; the status bar follows.
        await d.harness.sync.send(.queued(receipt.entry.key))
        await d.waitUntil { d.layout().node(withIdentifier: "status.queue")?.label == "Queue: 1 queued · 50.00 EUR" }
        await d.harness.sync.send(.confirmed(receipt.entry.key, reference: "H20261129-0000042"))
        await d.waitUntil { d.layout().node(withIdentifier: "receipt.status")?.label == "Confirmed" }
        #expect(d.layout().allText.contains { $0.contains("H20261129-0000042") })
        await d.tap(ReceiptScreen.Control.done)
        #expect(d.coordinator.current.screenName == "home")
        #expect(d.coordinator.routes == [.home])
    }

    @Test func scannerTextAndEnterOpensTheAccount() async throws {
        let d = await TerminalDriver()
        await d.stockAccount()
        await d.signIn()
        await d.tap(HomeScreen.Control.findAccount)
        await d.type("DE54 5001 0517 0426 3971 58\n")
        #expect(d.coordinator.current.screenName == "account")
        let model = try #require(d.coordinator.current.account, "the account screen is not on top: \(d.coordinator.current.screenName)")
        #expect(model.iban == FeatureHarness.account)
    }

    @Test func scannedRecipientFillsTheTransferWithoutTouchingTheAmount() async throws {
        let d = await TerminalDriver()
        await d.stockAccount()
        await d.signIn()
        await d.openAccount()
        await d.tap(AccountScreen.Control.transfer)
        await d.key("1000", on: AmountEntryScreen.Control.keys, enter: false)
        await d.type("ES9121000418450200051332\n")
        let model = try #require(d.coordinator.current.amount, "the amount screen is not on top: \(d.coordinator.current.screenName)")
        #expect(model.amountText == "10.00 EUR")
        #expect(model.recipientFieldText == "ES91 2100 0418 4502 0005 1332")
        #expect(model.focus == .amount, "the keys go back to the amount")
        // Keyboard digits and Enter then finish the amount and review.
        await d.type("0\n")
        #expect(d.coordinator.current.screenName == "review")
    }

    @Test func recipientKeyboardReplacesTheCashKeypad() async throws {
        let d = await TerminalDriver()
        await d.stockAccount()
        await d.signIn()
        await d.openAccount()
        await d.tap(AccountScreen.Control.transfer)
        #expect(d.layout().node(withIdentifier: "amount.keys.A") == nil)
        await d.tap(AmountEntryScreen.Control.recipientField)
        let tree = d.layout()
        #expect(tree.node(withIdentifier: "amount.keys.A") != nil)
        #expect(tree.node(withIdentifier: "amount.keys.00") == nil)
        await d.tap("ES91".map { "amount.keys.\($0)" })
        let model = try #require(d.coordinator.current.amount, "the amount screen is not on top: \(d.coordinator.current.screenName)")
        #expect(model.recipientText == "ES91")
        await d.tap(AmountEntryScreen.Control.amountField)
        #expect(d.layout().node(withIdentifier: "amount.keys.00") != nil)
    }

    @Test func refusalNamesTheLimitOnScreen() async throws {
        let d = try await Scenario.amountRefused.make()
        #expect(d.layout().node(withIdentifier: "amount.refusal")?.label == "Over the offline limit of 2,000.00 EUR per transaction.")
        #expect(d.layout().node(withIdentifier: "amount.limits") != nil)
    }

    @Test func rejectedQueueRowIsAcknowledgedByItsButton() async throws {
        let d = try await Scenario.queueRejected.make()
        let tree = d.layout()
        let ack = try #require(tree.interactiveNodes.first { $0.identifier?.hasSuffix(".acknowledge") == true })
        #expect(ack.label?.hasPrefix("Acknowledge rejected Withdrawal") == true)
        #expect(tree.node(withIdentifier: "status.rejected")?.label == "1 rejected")
        await d.tap(ack.identifier!)
        #expect(await d.harness.outbox.acknowledged.count == 1)
        #expect(d.layout().interactiveNodes.allSatisfy { $0.identifier?.hasSuffix(".acknowledge") != true })
        await d.tap(QueueScreen.Control.syncNow)
        #expect(await d.harness.sync.syncNowCount == 1)
    }

    @Test func lockedScreenUnlocksWithThePIN() async throws {
        let d = try await Scenario.locked.make()
        await d.key("1111", on: LockedScreen.Control.keypad, enter: false)
        await d.tap(LockedScreen.Control.unlock)
        #expect(d.coordinator.current.screenName == "locked")
        #expect(d.layout().node(withIdentifier: "locked.message") != nil)
        await d.key("1234", on: LockedScreen.Control.keypad, enter: false)
        await d.tap(LockedScreen.Control.unlock)
        #expect(d.coordinator.current.screenName == "home")
    }

    /// Each screen draws its primary action once, as the keypad's enter key
    /// under the operator's thumb, and that key carries the action's identifier.
    @Test(arguments: [
        (Scenario.amount, "amount.review", "Review"),
        (.amountTransferRecipient, "amount.review", "Review"),
        (.findAccount, "find-account.open", "Open account"),
        (.diagnostics, "diagnostics.open", "Open"),
        (.locked, "locked.unlock", "Unlock"),
    ])
    func primaryActionIsDrawnOnce(_ scenario: Scenario, _ action: String, _ label: String) async throws {
        let d = try await scenario.make()
        let tree = d.layout()
        #expect(tree.interactiveNodes.filter { $0.label == label }.count == 1, "\(scenario.rawValue): \(label) is drawn more than once")
        let key = try #require(tree.node(withIdentifier: action), "\(scenario.rawValue): no \(action)")
        #expect(key.role == .key, "\(scenario.rawValue): \(action) is a \(key.role), not the keypad's enter key")
    }

    @Test func tapsPostponeTheIdleLock() async throws {
        let d = await TerminalDriver()
        await d.signIn()
        d.harness.clock.advance(100)
        await d.tap(HomeScreen.Control.findAccount)
        d.harness.clock.advance(100)
        d.coordinator.tick()
        #expect(d.coordinator.current.screenName == "find-account", "a tap 100 s ago is activity")
        d.harness.clock.advance(30)
        d.coordinator.tick()
        #expect(d.coordinator.current.screenName == "locked")
    }

    @Test func staleTapsAreIgnored() async throws {
        let d = await TerminalDriver()
        #expect(!d.view.handleTap(identifier: HomeScreen.Control.findAccount.rawValue))
        #expect(!d.view.handleTap(identifier: "queue.row.0.acknowledge"))
        #expect(d.coordinator.current.screenName == "sign-in")
    }

    @Test func touchTestDrawsADotAtEachTouch() async throws {
        let d = try await Scenario.diagnosticsTouchTest.make()
        let model = try #require(d.coordinator.current.diagnostics, "the diagnostics screen is not on top: \(d.coordinator.current.screenName)")
        #expect(model.touches.count == 5)
        let (tree, surface) = d.render()
        #expect(tree.node(withIdentifier: DiagnosticsScreen.Control.touchArea)?.value == "5")
        // The dot's centre is painted in the focus colour, exactly where the finger was.
        #expect(surface.row(240)[400] & 0xFF_FFFF == Theme.standard.focus.argb & 0xFF_FFFF)
    }

    @Test func calibrationTakesThreeRawTapsAndSavesTheMatrix() async throws {
        let d = try await Scenario.diagnosticsCalibration.make()
        let model = try #require(d.coordinator.current.diagnostics, "the diagnostics screen is not on top: \(d.coordinator.current.screenName)")
        #expect(model.mode == .calibrating(step: 1))
        let (_, surface) = d.render()
        // The cross of target 2 sits at 90 % across, half way down.
        #expect(surface.row(240)[719] & 0xFF_FFFF == Theme.standard.danger.argb & 0xFF_FFFF)
        d.view.handleTouch(x: 718, y: 238, rawX: 0.898, rawY: 0.497)
        d.view.handleTouch(x: 240, y: 430, rawX: 0.301, rawY: 0.899)
        await d.coordinator.settle()
        #expect(model.mode == .calibrated)
        let saved = try #require(await d.harness.diagnostics.saved.first)
        #expect(await d.harness.diagnostics.saved.count == 1)
        #expect(d.harness.touchCalibration.calls == [.begin, .apply(saved)])
        await d.tap(DiagnosticsScreen.Control.done)
        #expect(model.mode == .report)
    }
}
