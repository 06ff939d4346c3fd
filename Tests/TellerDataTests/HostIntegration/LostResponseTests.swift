@testable import ProcessTestSupport
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (a) The host commits a posting, then resets the connection without answering.
    @Suite struct LostResponseTests {
        @Test func aLostAnswerIsRetriedUnderTheSameKeyAndPostsOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            // FoundationNetworking (libcurl) silently resends a POST whose reused
            // connection died, but without its body; the host waits for the body
            // and the attempt ends at the request timeout. Keep that short here.
            let terminal = try Terminal(hostURL: host.url, requestTimeout: 2)
            try await host.setFaults(.init(dropAfterCommit: 1))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(1_500), isOnline: true)
            let later = try await terminal.store.enqueue(HostFixtures.deposit(1_600), isOnline: true)

            let drained = try await whileRunning(terminal.engine()) {
                try await eventually(timeout: .seconds(20)) { try await terminal.isDrained() }
            }
            #expect(drained, "the queue did not drain; host log: \(host.log)")

            let stats = try await host.stats()
            #expect(stats.droppedResponses == 1, "the fault did not fire")
            #expect(stats.postings == 2)
            #expect(stats.replays >= 1, "the retry of the lost answer was answered from the stored outcome")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == [entry.key.rawValue, later.key.rawValue], "exactly one posting per key, in order")

            let row = try #require(try await terminal.store.entry(for: entry.key))
            #expect(row.state == .confirmed(reference: try #require(postings.first?.hostReference)))
            #expect(row.attempts >= 1, "the engine retried after the lost answer")
            #expect(row.lastError == nil)
            await host.stop()
        }
    }
}
