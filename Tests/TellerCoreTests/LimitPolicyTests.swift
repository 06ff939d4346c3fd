import Testing
@testable import TellerCore

@Suite struct LimitPolicyTests {
    func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }

    var limits: Limits {
        get throws {
            try Limits(currency: .eur, perTransaction: eur(100_000), dailyPerTerminal: eur(500_000),
                       perOfflineTransaction: eur(20_000), offlineQueuedTotal: eur(50_000), maxOfflineAge: 72 * 3600)
        }
    }

    func context(online: Bool, today: Int64 = 0, queued: Int64 = 0, oldest: Double? = nil, withdrawable: Int64? = nil) -> LimitContext {
        LimitContext(isOnline: online, todayTotal: eur(today), queuedTotal: eur(queued), oldestQueuedAge: oldest, withdrawable: withdrawable.map(eur))
    }

    @Test func perTransactionLimitHitExactlyIsAllowed() throws {
        try limits.check(eur(100_000), kind: .deposit, context: context(online: true))
        #expect(throws: LimitViolation.perTransaction(limit: eur(100_000))) {
            try limits.check(eur(100_001), kind: .deposit, context: context(online: true))
        }
    }

    @Test func dailyTerminalTotalCountsWhatIsStored() throws {
        try limits.check(eur(50_000), kind: .deposit, context: context(online: true, today: 450_000))
        #expect(throws: LimitViolation.dailyTotal(limit: eur(500_000), remaining: eur(50_000))) {
            try limits.check(eur(50_001), kind: .deposit, context: context(online: true, today: 450_000))
        }
    }

    @Test func offlinePerTransactionLimitAppliesOnlyOffline() throws {
        try limits.check(eur(30_000), kind: .deposit, context: context(online: true))
        try limits.check(eur(20_000), kind: .deposit, context: context(online: false))
        #expect(throws: LimitViolation.offlinePerTransaction(limit: eur(20_000))) {
            try limits.check(eur(20_001), kind: .deposit, context: context(online: false))
        }
    }

    @Test func offlineQueuedTotal() throws {
        try limits.check(eur(10_000), kind: .deposit, context: context(online: false, queued: 40_000))
        #expect(throws: LimitViolation.offlineQueuedTotal(limit: eur(50_000), remaining: eur(10_000))) {
            try limits.check(eur(10_001), kind: .deposit, context: context(online: false, queued: 40_000))
        }
    }

    @Test func oldestQueuedAgeStopsOfflineEntry() throws {
        try limits.check(eur(100), kind: .deposit, context: context(online: false, oldest: 72 * 3600))
        #expect(throws: LimitViolation.offlineQueueTooOld(maxAge: 72 * 3600)) {
            try limits.check(eur(100), kind: .deposit, context: context(online: false, oldest: 72 * 3600 + 1))
        }
        try limits.check(eur(100), kind: .deposit, context: context(online: true, oldest: 100 * 3600))
    }

    @Test func offlineWithdrawalNeedsKnownAvailableMinusPendingDebits() throws {
        try limits.check(eur(5_000), kind: .withdrawal, context: context(online: false, withdrawable: 5_000))
        #expect(throws: LimitViolation.insufficientAvailable(withdrawable: eur(5_000))) {
            try limits.check(eur(5_001), kind: .withdrawal, context: context(online: false, withdrawable: 5_000))
        }
        #expect(throws: LimitViolation.noKnownBalance) {
            try limits.check(eur(1), kind: .transfer, context: context(online: false, withdrawable: nil))
        }
        // Deposits need no balance; online debits are the host's decision.
        try limits.check(eur(1), kind: .deposit, context: context(online: false, withdrawable: nil))
        try limits.check(eur(1), kind: .withdrawal, context: context(online: true, withdrawable: nil))
    }

    @Test func otherCurrencyIsRefusedByName() throws {
        let violation = LimitViolation.currencyNotSupported(.gbp, terminal: .eur)
        #expect(throws: violation) { try limits.check(Money(minorUnits: 1, currency: .gbp), kind: .deposit, context: context(online: true)) }
        #expect(violation.description.contains("GBP"))
    }

    @Test func violationsNameTheLimit() {
        #expect(LimitViolation.offlinePerTransaction(limit: eur(20_000)).description == "Over the offline per-transaction limit of 200.00 EUR.")
        #expect(LimitViolation.dailyTotal(limit: eur(1), remaining: eur(0)).limitName == "daily_per_terminal")
    }

    @Test func remainingNeverGoesNegative() throws {
        let remaining = try limits.remaining(kind: .withdrawal, context: context(online: false, today: 600_000, queued: 70_000, withdrawable: -300))
        #expect(remaining.today == eur(0))
        #expect(remaining.offlineQueue == eur(0))
        #expect(remaining.withdrawable == eur(0))
        #expect(remaining.largestAllowed == eur(0))
        let online = try limits.remaining(kind: .deposit, context: context(online: true, today: 490_000))
        #expect(online.offlinePerTransaction == nil)
        #expect(online.largestAllowed == eur(10_000))
    }

    @Test func limitsThemselvesAreValidated() {
        #expect(throws: LimitsError.notPositive(limit: "per_transaction")) {
            try Limits(currency: .eur, perTransaction: eur(0), dailyPerTerminal: eur(1), perOfflineTransaction: eur(1), offlineQueuedTotal: eur(1), maxOfflineAge: 1)
        }
        #expect(throws: LimitsError.wrongCurrency(limit: "daily_per_terminal", .gbp, expected: .eur)) {
            try Limits(currency: .eur, perTransaction: eur(1), dailyPerTerminal: Money(minorUnits: 1, currency: .gbp), perOfflineTransaction: eur(1), offlineQueuedTotal: eur(1), maxOfflineAge: 1)
        }
        #expect(throws: LimitsError.offlineAboveOnline(limit: "offline_per_transaction", online: "per_transaction")) {
            try Limits(currency: .eur, perTransaction: eur(1), dailyPerTerminal: eur(1), perOfflineTransaction: eur(2), offlineQueuedTotal: eur(1), maxOfflineAge: 1)
        }
    }
}
