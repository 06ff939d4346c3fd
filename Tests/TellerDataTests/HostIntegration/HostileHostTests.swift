@testable import ProcessHarness
@testable import ProcessTestSupport
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// The real `teller drain` against a host that answers wrongly in one way
    /// each: nothing is Confirmed that the real bank did not post, nothing
    /// reaches a redirect target, nothing crashes, no attempt outlives the
    /// deadline by more than 1 s, SIGTERM ends it within the deadline, `teller status`
    /// names the problem; then the real host gets every row exactly once.
    @Suite(.serialized, .tags(.slow)) struct HostileHostTests {
        static let deadline = 2.0

        @Test(arguments: HostileMode.all) func nothingIsConfirmedThatTheBankDidNotPost(_ hostileCase: HostileMode) async throws {
            let records = TemporaryDirectory("teller-hostile-record")
            let target = try await HostileHost(mode: "record-only", record: records.file("target.jsonl")).start()
            defer { Task { await target.stop() } }
            let hostile = try await HostileHost(mode: hostileCase.mode, redirectTo: target.port).start()
            defer { Task { await hostile.stop() } }

            let directory = TemporaryDirectory("teller-hostile-terminal")
            let store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits)
            var keys: [String] = []
            for amount: Int64 in [2_500, 1_000, 4_200] {
                keys.append(try await store.enqueue(HostFixtures.deposit(amount)).key.rawValue)
            }

            let started = ContinuousClock.now
            let (drain, files) = try TellerDrainProcess.start(
                dataDirectory: directory.path, hostURL: hostile.url,
                options: ["--request-timeout-s", "2", "--retry-base-s", "0.2", "--retry-cap-s", "1"])
            defer { withExtendedLifetime(files) {} }
            // The first attempt ends (and says why) within the deadline plus 1 s, plus the process's start.
            let attempted = await eventually(timeout: .seconds(Self.deadline + 1.5)) {
                ((try? OutboxRowSnapshot.all(inDataDirectory: directory.path)) ?? []).contains { $0.attempts >= 1 || $0.state == .needsReview }
            }
            #expect(attempted, "no attempt ended within \(Self.deadline + 1.5) s of starting; log: \(drain.stderr)")
            let firstAttempt = ContinuousClock.now - started
            // Let it retry a few times against the hostile host.
            try await Task.sleep(for: .seconds(Self.deadline + 1))
            #expect(drain.isRunning, "teller drain died: \(drain.stderr)")

            let rows = try OutboxRowSnapshot.all(inDataDirectory: directory.path)
            #expect(!rows.contains { $0.state == .confirmed }, "confirmed without the bank: \(rows.map(\.state))")
            if OutboxState.Kind(rawValue: hostileCase.rowState) == .needsReview {
                #expect(rows.allSatisfy { $0.state == .needsReview }, "\(rows.map(\.state))")
                #expect(rows.allSatisfy { $0.lastError?.contains("this terminal sent") == true }, "\(rows.map { $0.lastError ?? "-" })")
            } else {
                #expect(rows.allSatisfy { $0.state.isPending }, "\(rows.map(\.state))")
            }
            #expect(target.recordedRequests().isEmpty, "a request reached the redirect target: \(target.recordedRequests())")

            let status = try await TellerStatusJSON.run(dataDirectory: directory.path)
            let problem = try #require(status["sync_problem"] as? [String: Any], "teller status names no problem: \(status)")
            #expect(problem["kind"] as? String == hostileCase.problem, "\(problem)")
            #expect(drain.stderr.components(separatedBy: "sync: \(hostileCase.problem):").count - 1 <= 2,
                    "one log line per change of problem, not per retry: \(drain.stderr)")

            // Well under 1 s on an idle machine; the bound is just under the
            // 2 s request deadline a drain that waited for its transfer could
            // take, because a loaded 2-core machine once took over 1 s.
            let signalled = ContinuousClock.now
            kill(drain.pid, SIGTERM)
            let exited = await drain.waitForExit(timeout: .seconds(4))
            let exitTime = ContinuousClock.now - signalled
            #expect(exited && exitTime < .seconds(Self.deadline - 0.1), "SIGTERM took \(exitTime)")
            #expect(drain.terminationStatus == 0, "\(drain.stderr)")
            #expect(firstAttempt < .seconds(Self.deadline + 1.5))
            await hostile.stop()

            // The real bank, afterwards: every row posts exactly once.
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            defer { Task { await host.stop() } }
            let (real, realFiles) = try TellerDrainProcess.start(dataDirectory: directory.path, hostURL: host.url,
                                                         options: ["--until-empty", "--retry-base-s", "0.05", "--retry-cap-s", "0.2"])
            defer { withExtendedLifetime(realFiles) {} }
            #expect(await real.waitForExit(timeout: .seconds(30)), "the drain to the real host did not finish: \(real.stderr)")
            #expect(real.terminationStatus == 0, "stdout: \(real.stdout) stderr: \(real.stderr)")
            let posted = try await host.journal(outcome: "posted").map(\.idempotencyKey)
            #expect(posted.sorted() == keys.sorted(), "each row posted once: \(posted)")
            let after = try OutboxRowSnapshot.all(inDataDirectory: directory.path)
            // On a failure, what the drain said it did (a fresh connection once read a stale log: DatabaseSharedLockTests).
            #expect(after.allSatisfy { $0.state == .confirmed }, "\(after.map(\.state)); drain: \(real.stderr)")
        }
    }
}

/// `teller status --data-dir DIR` as a real process; its JSON.
enum TellerStatusJSON {
    static func run(dataDirectory: String) async throws -> [String: Any] {
        let files = TemporaryDirectory("teller-status-files")
        let configFile = files.file("teller.conf")
        try Data().write(to: URL(fileURLWithPath: configFile))
        let result = try await ChildProcess.run(TestProducts.executable("teller"), ["status", "--config", configFile, "--data-dir", dataDirectory])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw ReferenceHostError.admin("teller", "status", result.stdout + result.stderr)
        }
        return json
    }
}
