@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (d) A 503 with Retry-After holds the row back at least that long.
    @Suite struct RetryAfterTests {
        @Test func retryAfterIsHonouredBeforeTheRowPostsOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            // The engine's due times are the store's clock: moved by hand, so
            // the wait under test is the engine's, not this machine's speed.
            let clock = FixedClock(Date())
            let terminal = try Terminal(hostURL: host.url, clock: clock)
            try await host.setFaults(.init(fail: .init(count: 2, retryAfter: 1)))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(4_200))
            // A backoff of at most 10 ms: only Retry-After can explain a wait of a second.
            let engine = terminal.engine(RetryPolicy(base: 0.01, cap: 0.01, retryAfterCap: 30, idleInterval: 5))

            // Driven by hand, without the background loop, so every attempt is visible.
            let firstAttempt = clock.now()
            let wait = try #require(await engine.drainOnce())
            var row = try #require(try await terminal.store.entry(for: entry.key))
            #expect(row.state == .queued)
            #expect(row.attempts == 1)
            #expect(row.lastError?.contains("503") == true, "\(row.lastError ?? "no error")")
            let due = try #require(row.nextAttemptAt)
            // Stored in whole milliseconds, hence the millisecond of slack.
            #expect(due.timeIntervalSince(firstAttempt) >= 0.999, "next attempt \(due.timeIntervalSince(firstAttempt)) s after the first, before Retry-After")
            #expect(wait >= 0.9)

            // Asking again before Retry-After has passed sends nothing, up to its last moments.
            let early = try #require(await engine.drainOnce())
            #expect(early > 0)
            clock.advance(due.timeIntervalSince(clock.now()) - 0.05)
            let almost = try #require(await engine.drainOnce())
            #expect(almost > 0)
            #expect(try await host.stats().injectedFailures == 1)

            var attempts = 0
            while try await !terminal.isDrained(), attempts < 10 {
                attempts += 1
                let pending = try #require(try await terminal.store.entry(for: entry.key))
                if let next = pending.nextAttemptAt, next > clock.now() {
                    clock.advance(next.timeIntervalSince(clock.now()) + 0.005)
                }
                await engine.drainOnce()
            }
            let confirmedAt = clock.now()
            row = try #require(try await terminal.store.entry(for: entry.key))
            #expect(row.state.isConfirmed)
            #expect(row.attempts == 2, "two 503s, then the posting")
            #expect(confirmedAt.timeIntervalSince(firstAttempt) >= 2, "two Retry-After waits of 1 s each")
            let stats = try await host.stats()
            #expect(stats.injectedFailures == 2)
            #expect(stats.postings == 1)
            #expect(stats.submissions == 1, "the 503s came before the submission was processed")
            #expect(try await host.journal(outcome: "posted").map(\.idempotencyKey) == [entry.key.rawValue])
            await host.stop()
        }
    }
}
