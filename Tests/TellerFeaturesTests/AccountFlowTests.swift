import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

@MainActor
@Suite struct AccountFlowTests {
    @Test func findAccountValidatesLiveWithTheReason() async throws {
        let h = FeatureHarness()
        await h.signIn()
        h.coordinator.push(.findAccount)
        let model = try #require(h.coordinator.current.findAccount, "the findAccount screen is not on top: \(h.coordinator.current.screenName)")
        #expect(model.validationText == "Enter or scan an IBAN.")
        for c in "de5450010517" { model.type(c) }
        #expect(model.fieldText == "DE54 5001 0517")
        #expect(model.validationText == "DE IBAN: 10 more characters (22 in all).")
        for c in "0426397159" { model.type(c) }
        #expect(model.validationText == "The check digits do not match; check for a typing error.")
        model.backspace()
        model.type("8")
        #expect(model.validationText == "Valid IBAN")
        model.open()
        #expect(h.coordinator.routes.last == .account(FeatureHarness.account))
    }

    @Test func scannerTextPlusEnterOpensTheAccount() async throws {
        let h = FeatureHarness()
        await h.signIn()
        h.coordinator.push(.findAccount)
        let model = try #require(h.coordinator.current.findAccount, "the findAccount screen is not on top: \(h.coordinator.current.screenName)")
        model.scanned("DE54 5001 0517 0426 3971 58")
        #expect(h.coordinator.routes.last == .account(FeatureHarness.account))
    }

    @Test func accountPaintsCachedThenFresh() async throws {
        let h = FeatureHarness()
        await h.signIn()
        let cachedAt = h.clock.now().addingTimeInterval(-3600)
        await h.accounts.set(cached: h.snapshot(balance: 100_000, available: 90_000, asOf: cachedAt),
                             fresh: h.snapshot(balance: 125_000, available: 125_000, asOf: h.clock.now()), for: FeatureHarness.account)
        h.coordinator.push(.account(FeatureHarness.account))
        let model = try #require(h.coordinator.current.account, "the account screen is not on top: \(h.coordinator.current.screenName)")
        await h.coordinator.settle()
        #expect(model.balanceText == "1,250.00 EUR")
        #expect(model.freshnessText == nil)
        #expect(model.title == "Anna Schmidt")
        #expect(model.ibanText == "DE54 5001 0517 0426 3971 58")
    }

    @Test func offlineKeepsTheCacheWithItsTimeAndNoErrorWall() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        await h.accounts.set(cached: h.snapshot(balance: 100_000, available: 90_000, asOf: h.clock.now().addingTimeInterval(-360)), fresh: nil, offline: true, for: FeatureHarness.account)
        h.coordinator.push(.account(FeatureHarness.account))
        let model = try #require(h.coordinator.current.account, "the account screen is not on top: \(h.coordinator.current.screenName)")
        await h.coordinator.settle()
        #expect(model.balanceText == "1,000.00 EUR")
        #expect(model.availableText == "900.00 EUR")
        #expect(model.freshnessText == "updated 07:56")
        #expect(model.message == nil)
    }

    @Test func unknownAccountOfflineSaysSoPlainly() async throws {
        let h = FeatureHarness(online: false)
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: nil, offline: true, for: FeatureHarness.account)
        h.coordinator.push(.account(FeatureHarness.account))
        let model = try #require(h.coordinator.current.account, "the account screen is not on top: \(h.coordinator.current.screenName)")
        await h.coordinator.settle()
        #expect(model.message == "The bank's host cannot be reached and this account was never loaded on this terminal.")
        #expect(!model.canTransact)
    }

    @Test func ownQueuedItemsAreMarkedQueued() async throws {
        let h = FeatureHarness()
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: h.snapshot(asOf: h.clock.now()), for: FeatureHarness.account)
        _ = try await h.outbox.enqueue(TransactionRequest(kind: .withdrawal, account: FeatureHarness.account, amount: FeatureHarness.eur(2_000), operatorID: OperatorID("1001")!))
        h.coordinator.push(.account(FeatureHarness.account))
        let model = try #require(h.coordinator.current.account, "the account screen is not on top: \(h.coordinator.current.screenName)")
        await h.coordinator.settle()
        let lines = model.activity
        #expect(lines.first?.badge == "Queued")
        #expect(lines.first?.amount == "−20.00 EUR")
        #expect(lines.dropFirst().first?.amount == "+50.00 EUR")
        #expect(lines.dropFirst().first?.badge == nil)
    }

    @Test func manyQueuedPaymentsToOneAccountAreListedNewestTenAndCountedOnOneLine() async throws {
        let h = FeatureHarness()
        await h.signIn()
        await h.accounts.set(cached: nil, fresh: h.snapshot(asOf: h.clock.now()), for: FeatureHarness.account)
        for cents in 1...25 {
            _ = try await h.outbox.enqueue(TransactionRequest(kind: .deposit, account: FeatureHarness.account, amount: FeatureHarness.eur(Int64(cents * 100)),
                                                              operatorID: OperatorID("1001")!))
        }
        h.coordinator.push(.account(FeatureHarness.account))
        let model = try #require(h.coordinator.current.account, "the account screen is not on top: \(h.coordinator.current.screenName)")
        await h.coordinator.settle()
        let queued = model.activity.filter { $0.badge == "Queued" }
        #expect(queued.count == AccountViewModel.queuedRowsShown + 1)
        #expect(queued.first?.amount == "+25.00 EUR", "the newest first")
        #expect(queued.last?.title == "15 more queued payments")
        #expect(queued.last?.detail == "All of them are on the Queue screen")
    }
}
