@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (a) The host commits a posting, then resets the connection without answering.
    @Suite struct LostResponseTests {
        @Test func aLostAnswerIsRetriedUnderTheSameKeyAndPostsOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            // libcurl resends a request once, body and key included, when the
            // kept-alive connection it reused closes before any answer; either
            // that resend or the engine's own retry meets the stored outcome.
            let terminal = try Terminal(hostURL: host.url, requestTimeout: 2)
            try await host.setFaults(.init(dropAfterCommit: 1))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(1_500))
            let later = try await terminal.store.enqueue(HostFixtures.deposit(1_600))

            let engine = terminal.engine()
            let events = await engine.events()
            let drained = try await whileRunning(engine) {
                try await TellerDataTests.drained(terminal.store, seeing: events, within: .seconds(60))
            }
            #expect(drained, "the queue did not drain; host log: \(host.log)")

            let stats = try await host.stats()
            #expect(stats.droppedResponses == 1, "the fault did not fire")
            #expect(stats.postings == 2)
            #expect(stats.replays >= 1, "the retry of the lost answer was answered from the stored outcome")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == [entry.key.rawValue, later.key.rawValue], "exactly one posting per key, in order")

            let row = try #require(try await terminal.store.entry(for: entry.key))
            let reference = try #require(postings.first?.hostReference)
            #expect(row.state == .confirmed(reference: reference))
            #expect(row.lastError == nil)
            await host.stop()
        }
    }
}
