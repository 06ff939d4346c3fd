@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// A wake from the link monitor is the moment connectivity returns: a
    /// row held back only because the host was unreachable goes now, not
    /// when its (long) backoff ends.
    @Suite struct LinkWakeTests {
        @Test func aLinkWakeSendsARowThatWaitsOutAnOfflineBackoff() async throws {
            let port = try freeLoopbackPort()
            let host = ReferenceHost(directory: TemporaryDirectory("teller-host"), port: port)
            let terminal = try Terminal(hostURL: URL(string: "http://127.0.0.1:\(port)")!)
            // Backoffs of up to 60 s: only the wake can explain a send within the test's seconds.
            let engine = terminal.engine(RetryPolicy(base: 60, cap: 60, retryAfterCap: 300, idleInterval: 60))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(700))

            let posted = try await whileRunning(engine) {
                // Full jitter may draw a short wait; the test needs one of at least 5 s.
                let longWait = try await eventually(timeout: .seconds(30)) {
                    let row = try await terminal.store.entry(for: entry.key)
                    return row.flatMap(\.nextAttemptAt).map { $0 > Date().addingTimeInterval(5) } ?? false
                }
                try #require(longWait, "no backoff of 5 s or more was drawn against the absent host")
                var row = try #require(try await terminal.store.entry(for: entry.key))
                #expect(row.lastError?.contains("host unreachable") == true)
                try await host.start()
                // The host is up, but nothing tells the engine: the row keeps waiting.
                try await Task.sleep(for: .milliseconds(500))
                row = try #require(try await terminal.store.entry(for: entry.key))
                #expect(row.state == .queued)

                await engine.wake(reason: "link up (test)")
                return try await eventually(timeout: .seconds(3)) {
                    try await terminal.store.entry(for: entry.key)?.state.isConfirmed == true
                }
            }
            #expect(posted, "a link wake did not send the row held back by an offline backoff")
            #expect(try await host.journal(outcome: "posted").map(\.idempotencyKey) == [entry.key.rawValue])
            await host.stop()
        }

        /// An idle engine learns of a cut from the link monitor's wake, not
        /// at its next idle probe: the status says offline within a request.
        @Test func aLinkDownWakeShowsTheCutWithoutWaitingForTheIdleTimer() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            // An idle probe only every 60 s: only the wake can explain offline within seconds.
            let engine = terminal.engine(RetryPolicy(base: 60, cap: 60, retryAfterCap: 300, idleInterval: 60))
            try await whileRunning(engine) {
                let online = await eventually(timeout: .seconds(10)) { await engine.status().isOnline }
                try #require(online, "the idle engine never saw the host")
                await host.stop()
                // Nothing tells the engine yet: it still believes what it last saw.
                try await Task.sleep(for: .milliseconds(500))
                #expect(await engine.status().isOnline)
                await engine.wake(reason: "link down (test)")
                let offline = await eventually(timeout: .seconds(5)) { await !engine.status().isOnline }
                #expect(offline, "a link-down wake did not make the idle engine ask the host")
            }
        }

        @Test func aLinkWakeDoesNotCutARetryAfterShort() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            try await host.setFaults(.init(fail: .init(count: 1, retryAfter: 30)))
            let engine = terminal.engine(RetryPolicy(base: 0.01, cap: 0.01, retryAfterCap: 300, idleInterval: 60))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(800))
            try await whileRunning(engine) {
                let failed = try await eventually(timeout: .seconds(10)) {
                    try await terminal.store.entry(for: entry.key)?.attempts == 1
                }
                #expect(failed)
                await engine.wake(reason: "link up (test)")
                try await Task.sleep(for: .milliseconds(500))
            }
            // The host asked for 30 s; a link coming up says nothing about its load.
            #expect(try await terminal.store.entry(for: entry.key)?.state == .queued)
            #expect(try await host.stats().injectedFailures == 1)
            #expect(try await host.stats().submissions == 0)
            await host.stop()
        }
    }
}
