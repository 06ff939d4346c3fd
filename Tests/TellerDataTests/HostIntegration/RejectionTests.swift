@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (e) A final refusal from the host is a final state on the row, with its reason.
    @Suite struct RejectionTests {
        @Test func aWithdrawalOverTheBalanceIsRejectedWithItsReason() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            // The bank has answered just now, so the online limits apply to the withdrawal.
            _ = try await terminal.client.health()
            let engine = terminal.engine()
            let events = await engine.events()

            // Jonas Weber has 42.50; the terminal has no cached balance, so only the host can refuse.
            let entry = try await terminal.store.enqueue(HostFixtures.withdrawal(5_000, from: HostFixtures.low))
            // The engine's events until its rejection, published once the outcome is committed.
            let seen = try await whileRunning(engine) {
                try await watch(events, within: .seconds(60)) { seen in
                    seen.contains { if case .rejected = $0 { true } else { false } }
                }
            } ?? []
            #expect(try await terminal.isDrained(), "events: \(seen)")

            let row = try #require(try await terminal.store.entry(for: entry.key))
            #expect(row.state == .rejected(reason: "insufficient_funds", acknowledged: false))
            #expect(seen.contains(.rejected(entry.key, reason: "insufficient_funds")), "events: \(seen)")
            #expect(seen.firstIndex(of: .sending(entry.key)) ?? .max < seen.firstIndex(of: .rejected(entry.key, reason: "insufficient_funds")) ?? .min)
            #expect(!seen.contains { if case .confirmed = $0 { true } else { false } })
            #expect(try await terminal.store.summary().unacknowledgedRejections == 1)

            let journal = try await host.journal()
            #expect(journal.count == 1)
            #expect(journal.first?.idempotencyKey == entry.key.rawValue)
            #expect(journal.first?.outcome == "rejected")
            #expect(journal.first?.reason == "insufficient_funds")
            #expect(try await host.stats().postings == 0)
            await host.stop()
        }
    }
}
