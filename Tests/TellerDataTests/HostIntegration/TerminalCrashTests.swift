@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (f) The terminal process dies mid-drain (SIGKILL) and starts again.
    @Suite struct TerminalCrashTests {
        @Test func aDrainKilledMidwayAndRestartedPostsEveryRowExactlyOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let data = TemporaryDirectory("teller-terminal")
            let rowCount = 60
            var keys: [String] = []
            do {
                // Queued by this process; the store is closed before teller drain opens the file.
                let store = try TellerStore(dataDirectory: data.path, limits: HostFixtures.limits)
                for index in 0..<rowCount {
                    keys.append(try await store.enqueue(HostFixtures.deposit(300 + Int64(index))).key.rawValue)
                }
            }
            // Slow answers, so that the drain is still midway when the faults change below.
            try await host.setFaults(.init(delayMs: 150))
            let retries = ["--retry-base-s", "0.05", "--retry-cap-s", "0.5", "--request-timeout-s", "30"]

            let (first, firstFiles) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: host.url, options: retries)
            let midway = try await eventually(timeout: .seconds(60)) { try await host.journal(outcome: "posted").count >= 10 }
            // From here the host holds every answer after committing it. Once an
            // answer already on its way has arrived, the drain waits on a
            // posting the host committed and it has not heard of: the kill
            // lands in the lost-reply window every run (checked below: the
            // restarted drain meets a replayed outcome).
            try await host.setFaults(.init(delayMs: 20_000))
            try await Task.sleep(for: .milliseconds(300))
            let held = try await eventually(timeout: .seconds(60)) {
                try await host.journal(outcome: "posted").count > TellerDrainProcess.confirmedKeys(in: first.stderr).count
            }
            kill(first.pid, SIGKILL)
            try await host.setFaults(.init(delayMs: 0))
            try #require(held, "no committed posting was waiting for its answer; drain log: \(first.stderr)")
            #expect(await first.waitForExit(timeout: .seconds(5)))
            try #require(midway, "no postings appeared before the kill; drain log: \(first.stderr)")
            #expect(first.terminationStatus == 128 + SIGKILL)
            let postedAtKill = try await host.journal(outcome: "posted").count
            #expect(postedAtKill < rowCount, "the drain had finished before the kill")
            #expect(TellerDrainProcess.wakeReasons(in: first.stderr).first == "start")

            let (second, secondFiles) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: host.url, options: retries + ["--until-empty"])
            let finished = await second.waitForExit(timeout: .seconds(60))
            if !finished { await second.stop(SIGKILL) }
            #expect(finished, "the restarted drain did not empty the queue")
            #expect(second.terminationStatus == 0, "\(second.stderr)")

            let rows = try await TellerStore(dataDirectory: data.path, limits: HostFixtures.limits).entries().sorted { $0.id < $1.id }
            #expect(rows.map(\.key.rawValue) == keys, "nothing lost, nothing added")
            #expect(rows.allSatisfy { $0.state.isConfirmed }, "\(rows.filter { !$0.state.isConfirmed }.map(\.state))")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == keys, "each key posted once, in queue order")
            #expect(postings.map(\.hostReference) == rows.map(\.state.reference))
            let stats = try await host.stats()
            #expect(stats.postings == rowCount)
            #expect(stats.replays >= 1, "the kill missed the lost-reply window: no outcome was replayed, so this run proved nothing about it")

            // What each run reported: no row confirmed twice, and the second run finished the rest.
            let firstConfirmed = Set(TellerDrainProcess.confirmedKeys(in: first.stderr))
            let secondConfirmed = Set(TellerDrainProcess.confirmedKeys(in: second.stderr))
            #expect(firstConfirmed.isDisjoint(with: secondConfirmed))
            #expect(firstConfirmed.union(secondConfirmed).isSubset(of: Set(keys)))
            #expect(secondConfirmed.count >= rowCount - postedAtKill)
            withExtendedLifetime((firstFiles, secondFiles)) {}
            await host.stop()
        }
    }
}
