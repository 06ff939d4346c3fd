@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
import ProcessTestSupport

extension HostIntegrationTests {
    /// (g) A real link cut: terminal and host in two network namespaces joined
    /// by a veth pair. Needs root for `ip netns`; without it the test is
    /// skipped and the run says why.
    @Suite(.tags(.networkNamespace)) struct LinkCutTests {
        @Test(.enabled(if: VethBench.isAvailable, "needs root and iproute2 to create network namespaces; skipped when not root"))
        func aLinkCutMeansTimeoutsAndTheLinkComingUpStartsTheDrainAtOnce() async throws {
            let bench = VethBench()
            var host: ReferenceHost?
            var drain: ChildProcess?
            defer {
                // Whatever happened: processes first, then the namespaces they live in.
                drain?.killNow()
                host?.child?.killNow()
                bench.remove()
            }
            try await bench.create()
            let started = try await ReferenceHost(directory: TemporaryDirectory("teller-host"), bind: "0.0.0.0", namespace: bench.hostNamespace).start()
            host = started
            let hostURL = URL(string: "http://\(VethBench.hostAddress):\(started.port)")!

            // Carrier loss: the terminal's packets go nowhere, nothing answers, nothing refuses.
            try await bench.setHostSide(up: false)
            let data = TemporaryDirectory("teller-terminal")
            var keys: [String] = []
            do {
                let store = try TellerStore(dataDirectory: data.path, limits: HostFixtures.limits)
                for index in 0..<5 {
                    keys.append(try await store.enqueue(HostFixtures.deposit(900 + Int64(index))).key.rawValue)
                }
            }
            // Backoff of up to 30-60 s, so the timer cannot explain a drain within 3 s.
            let launchedAt = Date()
            let (process, files) = try TellerDrainProcess.start(
                dataDirectory: data.path, hostURL: hostURL,
                options: ["--allow-insecure-http", "--request-timeout-s", "2", "--retry-base-s", "30", "--retry-cap-s", "60"],
                namespace: bench.terminalNamespace)
            drain = process

            let attempted = try await eventually(timeout: .seconds(60)) {
                try OutboxRowSnapshot.all(inDataDirectory: data.path).first.map { $0.attempts >= 1 } ?? false
            }
            try #require(attempted, "no attempt recorded; drain log: \(process.stderr)")
            let firstFailure = Date()
            let head = try #require(try OutboxRowSnapshot.all(inDataDirectory: data.path).first)
            let error = head.lastError ?? ""
            // NSURLErrorTimedOut is -1001; a refused connection would be -1004 and immediate.
            #expect(error.contains("-1001") || error.lowercased().contains("timed out"), "not a timeout: \(error)")
            #expect(!error.contains("-1004") && !error.lowercased().contains("refused"), "refused, not cut: \(error)")
            #expect(firstFailure.timeIntervalSince(launchedAt) >= 1.9, "the attempt failed faster than the 2 s timeout")
            #expect(try await started.stats().tokenIssues == 0, "nothing reached the host across the cut link")

            // The row must rest (no attempt in flight, which the link coming up
            // could complete) with its own backoff well beyond the 3 s window;
            // full jitter can draw short waits, so wait those out (bounded).
            let resting = try await eventually(timeout: .seconds(90), interval: .milliseconds(100)) {
                let row = try OutboxRowSnapshot.all(inDataDirectory: data.path).first
                return row?.state == .queued && (row?.nextAttemptAt.map { $0 > Date().addingTimeInterval(8) } ?? false)
            }
            try #require(resting, "the head row never rested with a long backoff; drain log: \(process.stderr)")
            // The attempt timed out at 2 s but the kernel's ARP for the host
            // probes on to 3 s; a link coming up inside that gap fails the next
            // packet with EHOSTUNREACH. Let the neighbour entry settle first.
            let settled = try await eventually(timeout: .seconds(3), interval: .milliseconds(100)) {
                try await bench.terminalNeighbourState().contains("INCOMPLETE") == false
            }
            #expect(settled)
            let nextByTimer = try #require(try OutboxRowSnapshot.all(inDataDirectory: data.path).first?.nextAttemptAt)
            let wakesBefore = TellerDrainProcess.wakeReasons(in: process.stderr).count

            try await bench.setHostSide(up: true)
            let linkUpAt = Date()
            let drainStarted = await eventually(timeout: .seconds(3), interval: .milliseconds(20)) {
                !TellerDrainProcess.confirmedKeys(in: process.stderr).isEmpty
            }
            let startedAfter = Date().timeIntervalSince(linkUpAt)
            let headError = try OutboxRowSnapshot.all(inDataDirectory: data.path).first?.lastError ?? "none"
            #expect(drainStarted, "nothing posted within 3 s of the link coming up (\(startedAfter) s); head row error: \(headError); drain log: \(process.stderr)")
            #expect(Date() < nextByTimer, "the backoff timer was due; the test proves nothing")

            let newWakes = Array(TellerDrainProcess.wakeReasons(in: process.stderr).dropFirst(wakesBefore))
            let firstWake = try #require(newWakes.first, "no wake logged after the link came up; drain log: \(process.stderr)")
            #expect(firstWake.hasPrefix("link up") || firstWake.hasPrefix("address added"), "woke for '\(firstWake)', not the link; wakes: \(newWakes)")
            #expect(!newWakes.contains("timer"), "wakes after link up: \(newWakes)")

            let allPosted = await eventually(timeout: .seconds(15)) {
                TellerDrainProcess.confirmedKeys(in: process.stderr).count == keys.count
            }
            #expect(allPosted, "drain log: \(process.stderr)")
            // teller drain ends cleanly on SIGTERM.
            await process.stop(SIGTERM)
            #expect(process.terminationStatus == 0, "\(process.stderr)")

            let rows = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            #expect(rows.map(\.key) == keys)
            #expect(rows.allSatisfy { $0.state == .confirmed })
            #expect(try await started.journal(outcome: "posted").map(\.idempotencyKey) == keys)
            await started.stop()
            withExtendedLifetime(files) {}
            bench.remove()
            #expect(try await bench.leftovers().isEmpty, "network namespaces left behind")
        }
    }
}
