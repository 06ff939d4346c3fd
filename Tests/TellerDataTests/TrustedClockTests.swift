@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

/// The clock is input: a board without a real-time clock boots at 1970.
@Suite struct TrustedClockTests {
    final class SettableClock: WallClock, @unchecked Sendable {
        var date: Date
        init(_ date: Date) { self.date = date }
        func now() -> Date { date }
    }

    static let floor = Date(timeIntervalSince1970: 1_795_996_800) // 2026-11-30

    @Test func aClockBelowTheFloorIsNotSetAndStampsFromTheFloor() {
        let system = SettableClock(Date(timeIntervalSince1970: 86_400)) // 1970-01-02
        let clock = TrustedClock(floor: Self.floor, system: system)
        #expect(!clock.isVerified)
        let stamped = clock.now()
        #expect(stamped >= Self.floor && stamped.timeIntervalSince(Self.floor) < 5, "from the floor plus elapsed time: \(stamped)")
        let stamp = clock.stamp()
        #expect(!stamp.isVerified && stamp.date >= Self.floor, "a row's time and its clock_unverified flag agree: \(stamp)")
        system.date = Self.floor.addingTimeInterval(3600) // NTP sets it
        #expect(clock.isVerified)
        #expect(clock.now() == system.date)
        #expect(clock.stamp() == (system.date, true))
    }

    @Test func aCommittedRowRaisesTheFloor() {
        let system = SettableClock(Self.floor.addingTimeInterval(100))
        let clock = TrustedClock(floor: Self.floor, system: system)
        clock.committed(at: Self.floor.addingTimeInterval(30 * 86_400)) // a row stamped by a clock 30 days ahead
        #expect(!clock.isVerified, "now the wall clock is behind what the terminal knows has passed")
        #expect(clock.now() >= Self.floor.addingTimeInterval(30 * 86_400), "time never runs backwards for new rows")
    }

    @Test func theBanksTimeIsTheReferenceOnceHeard() {
        let system = SettableClock(Self.floor.addingTimeInterval(100))
        let clock = TrustedClock(floor: Self.floor, system: system)
        clock.committed(at: Self.floor.addingTimeInterval(30 * 86_400))
        clock.bankSaid(Self.floor.addingTimeInterval(100))
        #expect(clock.isVerified, "a clock corrected after booting in the future is right again at once")
        system.date = Self.floor.addingTimeInterval(100 + 3600)
        #expect(!clock.isVerified, "an hour off the bank's time is not set")
    }

    @Test func httpDatesAreReadWithoutACalendar() {
        #expect(TrustedClock.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(TrustedClock.parseHTTPDate("Mon, 30 Nov 2026 00:00:00 GMT") == Self.floor)
        #expect(TrustedClock.parseHTTPDate("Mon, 29 Feb 2028 12:00:00 GMT") == Date(timeIntervalSince1970: 1_835_438_400))
        for bad in ["", "yesterday", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"] {
            #expect(TrustedClock.parseHTTPDate(bad) == nil, "\(bad)")
        }
    }

    /// A row whose wall-clock age is 56 years but which the engine never
    /// watched wait is not moved to needs review: only elapsed time counts.
    @Test func aClockJumpAloneNeverMovesARowToNeedsReview() async throws {
        let directory = TemporaryDirectory("teller-clock")
        let system = SettableClock(Date(timeIntervalSince1970: 86_400))
        let clock = TrustedClock(floor: Date(timeIntervalSince1970: 86_000), system: system) // a floor the 1970 clock passes
        let eur = Money(minorUnits: 1_000_000, currency: .eur)
        let limits = try Limits(currency: .eur, perTransaction: eur, dailyPerTerminal: eur, perOfflineTransaction: eur, offlineQueuedTotal: eur, maxOfflineAge: 1e9)
        let store = try TellerStore(dataDirectory: directory.path, limits: limits, clock: clock)
        let entry = try await store.enqueue(TransactionRequest(kind: .deposit, account: IBAN("DE54500105170426397158"),
                                                               amount: Money(minorUnits: 2_500, currency: .eur), operatorID: try #require(OperatorID("1001"))))
        system.date = Date() // the clock is set: the row now looks 56 years old
        let connection = HostConnection(configuration: try HostConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!, requestTimeout: 1))
        let host = HostClient(connection: connection, vault: TokenVault(connection: connection, credentials: TerminalCredentials(terminalID: "T-0001", secret: "demo-secret-T-0001"), dataDirectory: directory.path))
        let engine = SyncEngine(store: store, host: host, policy: RetryPolicy(base: 0.01, cap: 0.02))
        _ = await engine.drainOnce()
        let row = try #require(try await store.entry(for: entry.key))
        #expect(row.state == .queued, "still queued, not needs review: \(row.state)")
        #expect(row.waited < 1)
    }
}
