@testable import ProcessHarness
import Testing
import TellerCore
@testable import TellerData
import ProcessTestSupport

/// Issue 3, item 7: the data layer against deploy/reference-host running as
/// a real process on loopback (and, for the link test, in network
/// namespaces). Each test starts its own host with a fresh data file.
///
/// Serialized: several tests assert timings (Retry-After, a drain within
/// 3 s of a link coming up) that a neighbour hogging both cores would blur.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) enum HostIntegrationTests {}

/// Runs `body` while `engine` drains in the background, and stops the
/// engine however `body` ends, so no drain loop outlives its test.
func whileRunning<T>(_ engine: SyncEngine, _ body: () async throws -> T) async throws -> T {
    await engine.start()
    do {
        let result = try await body()
        await engine.stop()
        return result
    } catch {
        await engine.stop()
        throw error
    }
}

/// Waits on the engine's own events rather than on a timer: `condition` is
/// looked at first and again after each event `events` delivers (every
/// change the engine makes to a row is published once it is committed: a
/// request out, an outcome, a row sent to review). Returns the events seen
/// by the time it held, or nil if `timeout` passed first. Take `events`
/// (`engine.events()`) before what it waits for can happen, so none is
/// missed, and a new one for each wait: a watch ends its stream.
func watch(_ events: AsyncStream<SyncEvent>, within timeout: Duration,
           until condition: @escaping @Sendable (_ seen: [SyncEvent]) async throws -> Bool) async throws -> [SyncEvent]? {
    try await withThrowingTaskGroup(of: [SyncEvent]?.self) { group in
        group.addTask {
            var seen: [SyncEvent] = []
            if try await condition(seen) { return seen }
            for await event in events {
                seen.append(event)
                if try await condition(seen) { return seen }
            }
            return nil
        }
        group.addTask {
            // The deadline, not the wait: what never comes fails the test instead of hanging it.
            try? await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// True once `store` has no row queued or sending, looked at as `events`
/// come (``watch(_:within:until:)``); false if `timeout` passed first.
func drained(_ store: TellerStore, seeing events: AsyncStream<SyncEvent>, within timeout: Duration) async throws -> Bool {
    try await watch(events, within: timeout) { _ in try await store.summary().pendingCount == 0 } != nil
}
