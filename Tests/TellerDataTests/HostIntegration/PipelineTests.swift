@testable import ProcessHarness
@testable import ProcessTestSupport
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

extension HostIntegrationTests {
    /// The drain's pipeline (`SyncEngine.drainOnce`): row N+1 is sent once
    /// row N's answer arrived and passed the echo check, and while it is on
    /// the wire one commit records N's outcome and moves N+1 to `sending`.
    /// Triggers in the terminal's own database file (``OutboxWitness``) show
    /// the order in which the drain committed its state changes, and can
    /// make one commit slow so that the host provably meets the next row
    /// while it runs; the host's journal (or the hostile host's record)
    /// shows the order in which the bank saw the rows.
    @Suite(.tags(.slow)) struct PipelineTests {
        /// Rows a, b, c, … in queue order, and their keys.
        struct Rows {
            let ids: [Int64]
            let keys: [String]

            /// "b→sending" for each transition, naming rows by their place in the queue.
            func steps(_ transitions: [OutboxWitness.Transition]) -> [String] {
                transitions.map { transition in
                    let name = ids.firstIndex(of: transition.id).map { String(UnicodeScalar(UInt8(97 + $0))) } ?? "#\(transition.id)"
                    return "\(name)→\(transition.state)"
                }
            }

            /// The state of the row before each row that was marked sending, in order.
            func previousRowWhenSending(_ transitions: [OutboxWitness.Transition]) -> [String] {
                transitions.filter { $0.state == "sending" && $0.id != ids.first }.map { $0.previousRowState ?? "none" }
            }
        }

        static func enqueue(_ amounts: [Int64], into store: TellerStore) async throws -> Rows {
            var ids: [Int64] = []
            var keys: [String] = []
            for amount in amounts {
                let entry = try await store.enqueue(HostFixtures.deposit(amount))
                ids.append(entry.id)
                keys.append(entry.key.rawValue)
            }
            return Rows(ids: ids, keys: keys)
        }

        @Test func outcomesCommitInQueueOrderAndTheHostPostsEachRowOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let rows = try await Self.enqueue([1_100, 1_200, 1_300, 1_400], into: terminal.store)
            try await terminal.store.withDatabase { try OutboxWitness.install(in: $0) }

            #expect(await terminal.engine().drainOnce() == nil, "the queue did not drain")

            let transitions = try await terminal.store.withDatabase { try OutboxWitness.transitions(in: $0) }
            // Each outcome commits before the next row's move to sending (the two share a commit), in queue order.
            #expect(rows.steps(transitions) == ["a→sending", "a→confirmed", "b→sending", "b→confirmed",
                                                "c→sending", "c→confirmed", "d→sending", "d→confirmed"], "\(transitions)")
            #expect(rows.previousRowWhenSending(transitions) == ["confirmed", "confirmed", "confirmed"])
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == rows.keys, "each key posted once, in queue order")
            let stored = try await terminal.rowsInQueueOrder()
            #expect(stored.map(\.state.reference) == postings.map(\.hostReference))
            // The outcomes skipped fsync; the connection is back to syncing every commit (the next enqueue's).
            #expect(try await terminal.store.withDatabase { try $0.queryInt64("PRAGMA synchronous") } == 2)
            await host.stop()
        }

        /// `teller drain` against a host whose every answer is for another
        /// amount, with the commit of a's mismatch made slow: only a checked
        /// final outcome overlaps the next send, so b's request reaches the
        /// host only once a's needs-review is on disk.
        @Test func aMismatchIsOnDiskBeforeTheNextRowLeaves() async throws {
            let records = TemporaryDirectory("teller-hostile-record")
            let hostile = try await HostileHost(mode: "wrong-amount", record: records.file("requests.jsonl")).start()
            let data = TemporaryDirectory("teller-terminal")
            let rows: Rows
            do {
                let store = try TellerStore(dataDirectory: data.path, limits: HostFixtures.limits)
                rows = try await Self.enqueue([2_100, 2_200, 2_300], into: store)
            }
            do {
                let database = try OutboxWitness.open(data.path)
                try OutboxWitness.slowDown(rows.ids[0], becoming: .needsReview, in: database)
            }

            let (drain, files) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: hostile.url, options: [])
            let secondLeft = await eventually(timeout: .seconds(60), interval: .milliseconds(10)) {
                hostile.recordedRequests().contains { $0.contains(rows.keys[1]) }
            }
            let atSecond = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            try #require(secondLeft, "b never reached the host; drain log: \(drain.stderr)")
            #expect(atSecond[0].state == .needsReview, "b reached the host before a's mismatch was on disk: \(atSecond.map(\.state))")
            let allReviewed = try await eventually(timeout: .seconds(30)) {
                try OutboxRowSnapshot.all(inDataDirectory: data.path).allSatisfy { $0.state == .needsReview }
            }
            await drain.stop()
            let reviewed = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            #expect(allReviewed, "\(reviewed.map(\.state))")
            #expect(drain.terminationStatus == 0, "\(drain.stderr)")
            // The first request under each key came in queue order.
            let submitted = hostile.recordedRequests().compactMap { request in rows.keys.first { request.contains($0) } }
            var firsts: [String] = []
            for key in submitted where !firsts.contains(key) { firsts.append(key) }
            #expect(firsts == rows.keys)
            withExtendedLifetime(files) {}
            await hostile.stop()
        }

        @Test func anOutcomeTheStoreCannotRecordSendsItAndTheRowBehindItAgainAndTheHostReplays() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let rows = try await Self.enqueue([3_100, 3_200, 3_300], into: terminal.store)
            try await terminal.store.withDatabase {
                try OutboxWitness.install(in: $0)
                try OutboxWitness.refuseConfirm(of: rows.ids[0], in: $0)
            }
            let engine = terminal.engine()

            #expect(await engine.drainOnce() != nil, "the pass goes on after an outcome it could not record")
            // b left once a's answer was checked, and the commit of a's outcome
            // (with b's move to sending) failed meanwhile; b's answer is dropped
            // as well, so outcomes still commit in queue order.
            #expect(try await host.journal(outcome: "posted").map(\.idempotencyKey) == Array(rows.keys.prefix(2)))
            var stored = try await terminal.rowsInQueueOrder()
            #expect(stored.map(\.state) == [.queued, .queued, .queued])
            #expect(stored.map(\.attempts) == [0, 0, 0], "nothing failed at the host")
            let transitions = try await terminal.store.withDatabase { try OutboxWitness.transitions(in: $0) }
            #expect(rows.steps(transitions) == ["a→sending", "a→queued"], "\(transitions)")

            // The disk recovers: the next pass sends a and b again under their keys, and the host replays.
            try await terminal.store.withDatabase { try OutboxWitness.removeRefusal(in: $0) }
            #expect(await engine.drainOnce() == nil, "the queue did not drain")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == rows.keys, "each key posted once, in queue order")
            stored = try await terminal.rowsInQueueOrder()
            #expect(stored.map(\.state.reference) == postings.map(\.hostReference))
            let stats = try await host.stats()
            #expect(stats.postings == 3)
            #expect(stats.replays == 2, "a and b were answered from the host's stored outcomes")
            await host.stop()
        }

        @Test func stoppingWhileTheNextRowIsOnTheWireReturnsItToTheQueue() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            // Every answer is held back, so b is still on the wire when the engine stops.
            try await host.setFaults(.init(delayMs: 3_000))
            let terminal = try Terminal(hostURL: host.url, requestTimeout: 20)
            let rows = try await Self.enqueue([4_100, 4_200, 4_300], into: terminal.store)
            try await terminal.store.withDatabase { try OutboxWitness.install(in: $0) }
            let engine = terminal.engine()

            let secondLeft = try await whileRunning(engine) {
                try await eventually(timeout: .seconds(40)) { try await host.journal(outcome: "posted").count >= 2 }
            }
            try #require(secondLeft, "b never reached the host; host log: \(host.log)")
            var stored = try await terminal.rowsInQueueOrder()
            #expect(stored[0].state.isConfirmed)
            #expect(stored[1].state == .queued, "b's answer was still on its way when the engine stopped, so b goes back to the queue")
            #expect(stored[1].attempts == 0 && stored[1].lastError == nil, "a cancelled attempt is not a failed one")
            #expect(stored[2].state == .queued)
            let transitions = try await terminal.store.withDatabase { try OutboxWitness.transitions(in: $0) }
            #expect(rows.steps(transitions) == ["a→sending", "a→confirmed", "b→sending", "b→queued"], "\(transitions)")

            try await host.setFaults(.init(delayMs: 0))
            #expect(await engine.drainOnce() == nil, "the queue did not drain")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == rows.keys, "each key posted once, in queue order")
            stored = try await terminal.rowsInQueueOrder()
            #expect(stored.map(\.state.reference) == postings.map(\.hostReference))
            #expect(try await host.stats().replays == 1, "b's resend met the outcome the host had stored")
            await host.stop()
        }

        /// `teller drain` is SIGKILLed after b left and before a's outcome
        /// committed (that commit is made slow): the next open queues a
        /// again, and the resends of a and b meet the host's stored answers.
        @Test func aCrashAfterTheNextRowLeftButBeforeTheOutcomeCommittedResendsBothUnderTheirKeys() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let data = TemporaryDirectory("teller-terminal")
            let rows: Rows
            do {
                // Queued by this process; the store is closed before teller drain opens the file.
                let store = try TellerStore(dataDirectory: data.path, limits: HostFixtures.limits)
                rows = try await Self.enqueue([5_100, 5_200, 5_300], into: store)
            }
            do {
                let database = try OutboxWitness.open(data.path)
                try OutboxWitness.install(in: database)
                try OutboxWitness.slowDown(rows.ids[0], becoming: .confirmed, in: database)
            }

            let (first, firstFiles) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: host.url, options: [])
            let secondLeft = try await eventually(timeout: .seconds(30)) { try await host.journal(outcome: "posted").count >= 2 }
            kill(first.pid, SIGKILL)
            #expect(await first.waitForExit(timeout: .seconds(5)))
            try #require(secondLeft, "b never reached the host; drain log: \(first.stderr)")
            let atKill = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            try #require(atKill[0].state == .sending, "a's outcome had committed before the kill, so this run proved nothing about the window: \(atKill.map(\.state))")
            // b's move to sending shares the commit that the kill cut short.
            #expect(atKill.map(\.state) == [.sending, .queued, .queued])
            #expect(TellerDrainProcess.confirmedKeys(in: first.stderr).isEmpty)

            do {
                let database = try OutboxWitness.open(data.path)
                try OutboxWitness.removeSlowDown(in: database)
            }
            let (second, secondFiles) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: host.url,
                                                                     options: ["--until-empty", "--retry-base-s", "0.05", "--retry-cap-s", "0.5"])
            let finished = await second.waitForExit(timeout: .seconds(60))
            if !finished { await second.stop(SIGKILL) }
            #expect(finished, "the restarted drain did not empty the queue")
            #expect(second.terminationStatus == 0, "\(second.stderr)")

            let stored = try await TellerStore(dataDirectory: data.path, limits: HostFixtures.limits).entries().sorted { $0.id < $1.id }
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == rows.keys, "each key posted once, in queue order")
            #expect(stored.map(\.state.reference) == postings.map(\.hostReference))
            let stats = try await host.stats()
            #expect(stats.postings == 3)
            #expect(stats.replays == 2, "a and b, both posted before the kill, were resent under their keys and replayed")
            withExtendedLifetime((firstFiles, secondFiles)) {}
            await host.stop()
        }

        /// The host answers b with a 503 while a's outcome is still
        /// committing: a is recorded first, then b waits out Retry-After and
        /// posts once under its key.
        @Test func theHostFailingOnTheNextRowWhileTheOutcomeCommitsRetriesItUnderItsKey() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let data = TemporaryDirectory("teller-terminal")
            let rows: Rows
            do {
                let store = try TellerStore(dataDirectory: data.path, limits: HostFixtures.limits)
                rows = try await Self.enqueue([6_100, 6_200, 6_300], into: store)
            }
            do {
                let database = try OutboxWitness.open(data.path)
                try OutboxWitness.install(in: database)
                try OutboxWitness.slowDown(rows.ids[0], becoming: .confirmed, in: database)
            }
            // a's answer is held back long enough to aim the next failure at b.
            try await host.setFaults(.init(delayMs: 3_000))

            let (drain, files) = try TellerDrainProcess.start(dataDirectory: data.path, hostURL: host.url,
                                                              options: ["--until-empty", "--request-timeout-s", "20", "--retry-base-s", "0.05", "--retry-cap-s", "0.5"])
            let firstPosted = try await eventually(timeout: .seconds(30)) { try await host.journal(outcome: "posted").count >= 1 }
            try #require(firstPosted, "a never reached the host; drain log: \(drain.stderr)")
            try await host.setFaults(.init(fail: .init(count: 1, retryAfter: 1), delayMs: 0))
            let failed = try await eventually(timeout: .seconds(30)) { try await host.stats().injectedFailures >= 1 }
            let atFailure = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            try #require(failed, "the host never failed b; drain log: \(drain.stderr)")
            try #require(atFailure[0].state == .sending, "a's outcome had committed before the host failed b, so this run proved nothing about the overlap: \(atFailure.map(\.state))")
            #expect(atFailure[1].state == .queued, "b's move to sending shares a's slow commit")

            let finished = await drain.waitForExit(timeout: .seconds(60))
            if !finished { await drain.stop(SIGKILL) }
            #expect(finished, "the drain did not empty the queue")
            #expect(drain.terminationStatus == 0, "\(drain.stderr)")

            let database = try OutboxWitness.open(data.path)
            let transitions = try OutboxWitness.transitions(in: database)
            // a's outcome is recorded before b's failure, b returns to the queue and goes again before c.
            #expect(rows.steps(transitions) == ["a→sending", "a→confirmed", "b→sending", "b→queued",
                                                "b→sending", "b→confirmed", "c→sending", "c→confirmed"], "\(transitions)")
            let stored = try OutboxRowSnapshot.all(inDataDirectory: data.path)
            #expect(stored.map(\.attempts) == [0, 1, 0], "one failed attempt, b's")
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == rows.keys, "each key posted once, in queue order")
            let stats = try await host.stats()
            #expect(stats.injectedFailures == 1)
            #expect(stats.postings == 3)
            #expect(stats.replays == 0, "the 503 came before anything was stored under b's key")
            withExtendedLifetime(files) {}
            await host.stop()
        }
    }
}
