@testable import ProcessHarness
@testable import ProcessTestSupport
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite

extension HostIntegrationTests {
    /// Issue 27, item 1: a till's opening and closing reach the bank as their
    /// own idempotent records (docs/host-api.md §11), after the payments,
    /// against the reference host (and the hostile one for wrong answers).
    @Suite(.tags(.slow)) struct TillEventSyncTests {
        /// A till event row as the store keeps it.
        struct Row: Sendable, Equatable {
            let key: String
            let kind: String
            let state: String
            let reference: String?
            let attempts: Int64
            let lastError: String?
        }

        static func rows(_ store: TellerStore) async throws -> [Row] {
            try await store.withDatabase { database in
                try database.query("SELECT idempotency_key, kind, state, host_reference, attempts, last_error FROM till_events ORDER BY id") {
                    (row: Statement) throws(SQLiteError) in
                    Row(key: try row.text("idempotency_key"), kind: try row.text("kind"), state: try row.text("state"), reference: try row.optionalText("host_reference"),
                        attempts: try row.int64("attempts"), lastError: try row.optionalText("last_error"))
                }
            }
        }

        static func count(_ notes: [Int64: Int]) -> TillCount { TillCount(currency: .eur, pieces: notes) }

        /// Opens Maria's till with 100.00, takes a 50.00 cash deposit into it, and closes it with `closing`.
        static func day(_ terminal: Terminal, closing: [Int64: Int] = [5000: 3], approvedBy: OperatorID? = nil) async throws {
            _ = try await terminal.store.open(by: HostFixtures.maria, count: count([5000: 2]))
            _ = try await terminal.store.enqueue(HostFixtures.deposit(5_000))
            _ = try await terminal.store.close(by: HostFixtures.maria, count: count(closing), approvedBy: approvedBy)
        }

        static func allSent(_ terminal: Terminal) async throws -> Bool {
            let drained = try await terminal.isDrained()
            let rows = try await rows(terminal.store)
            return drained && rows.allSatisfy { $0.state == "confirmed" }
        }

        /// Issue 41: a cash deposit the bank refuses stays in the drawer's
        /// position (the customer's cash is in the drawer until someone
        /// settles it) and is listed to settle, so that counting the drawer
        /// closes balanced, not over (docs/architecture.md, "Till").
        @Test func aCashDepositTheBankRefusesStaysInTheDrawerAndIsListedToSettle() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            _ = try await terminal.store.open(by: HostFixtures.maria, count: Self.count([5000: 2]))
            let refused = try await terminal.store.enqueue(HostFixtures.deposit(5_000, into: HostFixtures.blocked))
            let posted = try await terminal.store.enqueue(HostFixtures.deposit(2_000))
            let drained = try await whileRunning(terminal.engine()) {
                try await eventually(timeout: .seconds(60)) { try await Self.allSent(terminal) }
            }
            #expect(drained)
            let refusedRow = try #require(try await terminal.store.entry(for: refused.key))
            #expect(refusedRow.state == .rejected(reason: "account_blocked", acknowledged: false))
            let postedRow = try #require(try await terminal.store.entry(for: posted.key))
            #expect({ if case .confirmed = postedRow.state { true } else { false } }(), "\(postedRow.state)")
            let journal = try await host.journal()
            #expect(journal.first { $0.idempotencyKey == refused.key.rawValue }?.outcome == "rejected")

            let open = try #require(try await terminal.store.openTill(of: HostFixtures.maria))
            #expect(open.toSettle.map(\.key) == [refused.key])
            #expect(open.voided.isEmpty)
            #expect(open.cashIn == Money(minorUnits: 7_000, currency: .eur), "the refused deposit's cash is in the drawer")
            // 100.00 float + 50.00 refused + 20.00 posted, counted as 3 x 50.00 and 1 x 20.00.
            let closed = try await terminal.store.close(by: HostFixtures.maria, count: Self.count([5000: 3, 2000: 1]), approvedBy: nil)
            #expect(closed.closing?.overShort == Money(minorUnits: 0, currency: .eur), "not over: \(String(describing: closed.closing))")
            #expect(closed.toSettle.map(\.key) == [refused.key])
            await host.stop()
        }

        /// An idle engine (its idle timer two minutes away) sends a till's
        /// opening at once: the open wakes it as an enqueue does.
        @Test func anIdleEngineSendsATillEventAsSoonAsItIsQueued() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let idle = RetryPolicy(base: 0.05, cap: 0.5, retryAfterCap: 30, idleInterval: 120)
            let sent = try await whileRunning(terminal.engine(idle)) {
                // Let the engine find nothing to do and go idle first.
                try await Task.sleep(for: .milliseconds(500))
                _ = try await terminal.store.open(by: HostFixtures.maria, count: Self.count([5000: 2]))
                // Half the 120 s idle timer: only the open's wake can explain a send within it.
                return try await eventually(timeout: .seconds(60)) { try await Self.allSent(terminal) }
            }
            let rows = try await Self.rows(terminal.store)
            #expect(sent, "the opening waited for the idle timer; rows: \(rows)")
            await host.stop()
        }

        @Test func anOpeningAndAClosingAreRecordedOnceAfterThePaymentAndReplayed() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            // Short by 10.00 beyond a zero tolerance: Tom approves it.
            try await Self.day(terminal, closing: [5000: 2, 2000: 2], approvedBy: HostFixtures.tom)

            let drained = try await whileRunning(terminal.engine()) {
                try await eventually(timeout: .seconds(60)) { try await Self.allSent(terminal) }
            }
            let rows = try await Self.rows(terminal.store)
            #expect(drained, "not everything reached the host; rows: \(rows); host log: \(host.log)")
            let recorded = try await host.tillEvents()
            #expect(recorded.map(\.idempotencyKey) == rows.map(\.key), "exactly one record per key, in queue order")
            #expect(recorded.map(\.event) == ["opened", "closed"])
            #expect(recorded.map(\.total) == [10_000, 14_000])
            #expect(recorded.last?.approvedBy == "1002")
            #expect(rows.map(\.reference) == recorded.map(\.hostReference), "each row keeps the bank's reference")
            let paymentFirst = try await host.tillEventsRecordedAfterThePayment()
            #expect(paymentFirst, "the payment went first")

            // The same key and frozen bytes again: the stored answer, nothing recorded twice.
            let payload = try await terminal.store.withDatabase { database in
                try database.queryFirst("SELECT payload FROM till_events WHERE kind = 'closed'") { (row: Statement) throws(SQLiteError) in try row.blob("payload") }
            }
            let closing = try #require(rows.last)
            let replay = try await terminal.client.submitTillEvent(try #require(payload), key: try #require(IdempotencyKey(rawValue: closing.key)))
            let reference = try #require(closing.reference)
            #expect(replay == TillEventOutcome(reference: reference, replayed: true))
            let recordedAfterReplay = try await host.tillEvents()
            #expect(recordedAfterReplay.count == 2)
            await host.stop()
        }

        /// A crash after the host recorded an event and before the terminal's
        /// (unsynced) commit: the event is queued again and resent under its
        /// key; the host replays, nothing is recorded twice. Also the lost
        /// answer of the host's drop fault.
        @Test func aResendAfterALostAnswerOrALostCommitRecordsOnce() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url, requestTimeout: 2)
            try await host.setFaults(.init(dropAfterCommit: 1))
            try await Self.day(terminal)
            let engine = terminal.engine()
            let drained = try await whileRunning(engine) {
                try await eventually(timeout: .seconds(60)) { try await Self.allSent(terminal) }
            }
            let first = try await Self.rows(terminal.store)
            #expect(drained, "rows: \(first); host log: \(host.log)")
            let dropped = try await host.stats().droppedResponses
            #expect(dropped == 1, "the fault did not fire")

            // What a power cut before the confirmation reached the disk leaves.
            try await terminal.store.withDatabase { database in
                try database.run("UPDATE till_events SET state = 'queued', host_reference = NULL")
            }
            let queuedAgain = try await terminal.store.report().tillEventsQueued
            #expect(queuedAgain == 2)
            await engine.drainOnce()
            let again = try await Self.rows(terminal.store)
            #expect(again.map(\.state) == ["confirmed", "confirmed"])
            #expect(again.map(\.reference) == first.map(\.reference), "the resend met the stored records")
            let recorded = try await host.tillEvents()
            #expect(recorded.map(\.idempotencyKey) == first.map(\.key), "one record per key")
            let stats = try await host.stats()
            #expect(stats.tillEventsRecorded == 2)
            #expect(stats.replays >= 2)
            await host.stop()
        }

        @Test func aBusyHostIsRetriedWithBackoffWithoutHoldingPaymentsBack() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            try await host.setFaults(.init(fail: .init(count: 3, retryAfter: 1, scope: "till_events")))
            try await Self.day(terminal)
            let engine = terminal.engine()

            // One pass: the payment posts, and the opening meets a 503 and waits.
            await engine.drainOnce()
            let paymentPosted = try await terminal.isDrained()
            #expect(paymentPosted, "a failing till event held the payment back")
            let waiting = try await Self.rows(terminal.store)
            #expect(waiting.map(\.state) == ["queued", "queued"])
            #expect(waiting.first?.attempts ?? 0 >= 1)
            #expect(waiting.first?.lastError?.contains("503") == true, "\(waiting)")

            let sent = try await whileRunning(engine) {
                try await eventually(timeout: .seconds(60)) { try await Self.allSent(terminal) }
            }
            let rows = try await Self.rows(terminal.store)
            #expect(sent, "rows: \(rows)")
            let injected = try await host.stats().injectedFailures
            #expect(injected == 3)
            let recorded = try await host.tillEvents()
            #expect(recorded.map(\.event) == ["opened", "closed"], "the opening kept its place while it waited")
            let queued = try await terminal.store.report().tillEventsQueued
            #expect(queued == 0)
            await host.stop()
        }

        static let wrongModes = ["other-key", "wrong-till", "wrong-kind", "wrong-amount"]

        @Test(arguments: wrongModes)
        func anAnswerForAnotherEventIsNeverAConfirmation(mode: String) async throws {
            let host = try await HostileHost(mode: mode).start()
            let terminal = try Terminal(hostURL: host.url)
            _ = try await terminal.store.open(by: HostFixtures.maria, count: Self.count([5000: 2]))
            await terminal.engine().drainOnce()
            let rows = try await Self.rows(terminal.store)
            #expect(rows.map(\.state) == ["queued"], "a wrong answer confirmed the event")
            #expect(rows.first?.reference == nil)
            #expect(rows.first?.lastError?.contains("does not match") == true, "\(rows)")
            #expect(rows.first?.attempts == 1, "a wrong answer ends the pass, as a payment's does")
            await host.stop()
        }

        @Test func aRefusedEventIsRejectedWithItsReasonAndNotSentAgain() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            _ = try await terminal.store.open(by: HostFixtures.maria, count: Self.count([5000: 2]))
            // A frozen body the host refuses: its total no longer adds up.
            try await terminal.store.withDatabase { database in
                try database.run("UPDATE till_events SET payload = CAST(replace(CAST(payload AS TEXT), '\"total\":10000', '\"total\":10001') AS BLOB)")
            }
            await terminal.engine().drainOnce()
            let rows = try await Self.rows(terminal.store)
            #expect(rows.map(\.state) == ["rejected"])
            #expect(rows.first?.lastError?.contains("400 invalid_field, field total") == true, "\(rows)")
            let recorded = try await host.tillEvents()
            #expect(recorded.isEmpty)
            await host.stop()
        }

        @Test func aPaymentASupervisorApprovedPostsWithTheApproval() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let request = try TransactionRequest(kind: .deposit, account: HostFixtures.rich, amount: Money(minorUnits: 2_500, currency: .eur),
                                                 operatorID: HostFixtures.maria, approvedBy: HostFixtures.tom)
            let entry = try await terminal.store.enqueue(request)
            let engine = terminal.engine()
            let events = await engine.events()
            let drained = try await whileRunning(engine) {
                try await TellerDataTests.drained(terminal.store, seeing: events, within: .seconds(60))
            }
            #expect(drained)
            let postings = try await host.journal(outcome: "posted")
            #expect(postings.map(\.idempotencyKey) == [entry.key.rawValue])
            #expect(postings.first?.approvedBy == "1002")
            let row = try #require(try await terminal.store.entry(for: entry.key))
            #expect(row.state.isConfirmed)
            await host.stop()
        }
    }
}

extension ReferenceHost {
    /// True when every till event was recorded after the last posting: the host stamps both.
    fileprivate func tillEventsRecordedAfterThePayment() async throws -> Bool {
        struct Stamped: Decodable { let recordedAt: String }
        struct Entries: Decodable { let entries: [Stamped] }
        struct Events: Decodable { let events: [Stamped] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let postings = try decoder.decode(Entries.self, from: try await admin("GET", "/admin/journal?outcome=posted")).entries
        let events = try decoder.decode(Events.self, from: try await admin("GET", "/admin/till-events")).events
        guard let lastPosting = postings.map(\.recordedAt).max(), let firstEvent = events.map(\.recordedAt).min() else { return false }
        return lastPosting <= firstEvent
    }
}
