@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (c) Rows queued while the host is down drain once it comes up.
    @Suite struct HostDownTests {
        @Test func fiftyRowsQueuedWhileTheHostIsDownPostOnceEachInQueueOrder() async throws {
            let port = try freeLoopbackPort()
            let host = ReferenceHost(directory: TemporaryDirectory("teller-host"), port: port)
            let terminal = try Terminal(hostURL: URL(string: "http://127.0.0.1:\(port)")!)

            let engine = terminal.engine()
            let events = await engine.events()
            let drained = try await whileRunning(engine) {
                for index in 0..<50 {
                    _ = try await terminal.store.enqueue(HostFixtures.deposit(100 + Int64(index)))
                }
                // Generous: on a loaded machine the engine's first retries come late; the wait ends at the second.
                let triedOffline = try await eventually(timeout: .seconds(60)) {
                    try await terminal.rowsInQueueOrder().first.map { $0.attempts >= 2 } ?? false
                }
                #expect(triedOffline, "the engine did not try the host while it was down")
                let first = try #require(try await terminal.rowsInQueueOrder().first)
                #expect(first.lastError?.contains("host unreachable") == true, "\(first.lastError ?? "no error")")
                #expect(try await terminal.store.summary().pendingCount == 50, "nothing may leave the queue while the host is down")

                try await host.start()
                return try await TellerDataTests.drained(terminal.store, seeing: events, within: .seconds(120))
            }
            #expect(drained, "the queue did not drain; host log: \(host.log)")

            let rows = try await terminal.rowsInQueueOrder()
            #expect(rows.count == 50)
            #expect(rows.allSatisfy { $0.state.isConfirmed })
            let postings = try await host.journal(outcome: "posted")
            // The journal is in commit order: the same keys, once each, in outbox id order.
            #expect(postings.map(\.idempotencyKey) == rows.map(\.key.rawValue))
            #expect(Set(postings.map(\.idempotencyKey)).count == 50)
            #expect(postings.map(\.hostReference) == rows.map(\.state.reference))
            let stats = try await host.stats()
            #expect(stats.postings == 50)
            #expect(stats.rejections == 0)
            await host.stop()
        }
    }
}
