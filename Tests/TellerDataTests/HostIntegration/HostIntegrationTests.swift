@testable import ProcessHarness
import Testing
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
