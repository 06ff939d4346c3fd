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
            // The rows' due times are this clock's, and it never moves: a row
            // held back by a backoff stays held, so only the wake can send it.
            let clock = FixedClock(Date())
            let terminal = try Terminal(hostURL: URL(string: "http://127.0.0.1:\(port)")!, clock: clock)
            let engine = terminal.engine(RetryPolicy(base: 60, cap: 60, retryAfterCap: 300, idleInterval: 60))
            let entry = try await terminal.store.enqueue(HostFixtures.deposit(700))
            let events = await engine.events()

            let posted = try await whileRunning(engine) {
                // The failed attempt is in the store; nothing is published for it (a poll: 60 s for a loaded machine).
                let heldBack = try await eventually(timeout: .seconds(60)) {
                    let row = try await terminal.store.entry(for: entry.key)
                    return row.flatMap(\.nextAttemptAt).map { $0 > clock.now() } ?? false
                }
                try #require(heldBack, "no backoff was drawn against the absent host")
                var row = try #require(try await terminal.store.entry(for: entry.key))
                #expect(row.lastError?.contains("host unreachable") == true)
                try await host.start()
                // The host is up, but nothing tells the engine: the row keeps waiting.
                try await Task.sleep(for: .milliseconds(500))
                row = try #require(try await terminal.store.entry(for: entry.key))
                #expect(row.state == .queued)

                await engine.wake(reason: "link up (test)")
                // Looked at as the engine publishes; the still clock rules out its backoff, however long this takes.
                return try await watch(events, within: .seconds(60)) { seen in seen.contains { if case .confirmed(entry.key, _) = $0 { true } else { false } } } != nil
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
            let events = await engine.events()
            try await whileRunning(engine) {
                // Looked at as the engine publishes (online and offline come once the connection's state changed).
                let online = try await watch(events, within: .seconds(30)) { _ in await engine.status().isOnline } != nil
                try #require(online, "the idle engine never saw the host")
                await host.stop()
                // Nothing tells the engine yet: it still believes what it last saw.
                try await Task.sleep(for: .milliseconds(500))
                #expect(await engine.status().isOnline)
                let later = await engine.events()
                await engine.wake(reason: "link down (test)")
                // Well inside the 60 s idle probe, which is what the wake must not wait for.
                let offline = try await watch(later, within: .seconds(20)) { _ in await !engine.status().isOnline } != nil
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
                let failed = try await eventually(timeout: .seconds(60)) {
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
