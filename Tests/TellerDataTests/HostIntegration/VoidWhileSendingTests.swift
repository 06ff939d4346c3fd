@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// Issue 27's acceptance: a void is refused once the row is `sending`,
    /// with the sync engine held at that point by a reference host that
    /// holds its answers back; a row voided while the engine had already
    /// read it is never sent; and a reversal reaches the bank naming the
    /// payment it reverses.
    @Suite struct VoidWhileSendingTests {
        /// Why the store refuses to void `key`, or nil when it voids it (a
        /// function: Swift 6.0 takes no closure with `try` inside `#expect`).
        static func voidRefusal(_ store: TellerStore, _ key: IdempotencyKey) async -> VoidRefusal? {
            let error = await thrownError(TellerError.self) { _ = try await store.void(key, reason: .wrongAmount, by: HostFixtures.maria) }
            guard case .voidRefused(let refusal) = error else { return nil }
            return refusal
        }

        @Test func aRowOnTheWireIsNeverVoidedAndAVoidedRowIsNeverSent() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            // Every answer is held back for 3 s: the engine waits with a on the wire.
            try await host.setFaults(.init(delayMs: 3_000))
            let terminal = try Terminal(hostURL: host.url, requestTimeout: 20)
            let a = try await terminal.store.enqueue(HostFixtures.deposit(6_100))
            let b = try await terminal.store.enqueue(HostFixtures.deposit(6_200))
            let c = try await terminal.store.enqueue(HostFixtures.deposit(6_300))
            let engine = terminal.engine()
            let store = terminal.store

            let held = try await whileRunning(engine) { () async throws -> Bool in
                // A poll: the engine says "sending" when the request leaves, which
                // may come before the store has marked the row so (the two run side by side).
                let sending = try await eventually(timeout: .seconds(20), interval: .milliseconds(5)) {
                    try await terminal.store.entry(for: a.key)?.state == .sending
                }
                try #require(sending, "a never went to sending; host log: \(host.log)")
                // Held mid-send: a is on the wire, its answer not back.
                #expect(await Self.voidRefusal(terminal.store, a.key) == .sending)
                #expect(try await terminal.store.entry(for: a.key)?.state == .sending)
                // b is queued (and already read by the engine as the next row): it can still be voided.
                let voided = try await terminal.store.void(b.key, reason: .duplicate, by: HostFixtures.maria)
                #expect(voided.state == .voided(reason: .duplicate))
                let outcomes = await engine.events()
                try await host.setFaults(.init(delayMs: 0))
                return try await drained(store, seeing: outcomes, within: .seconds(60))
            }
            #expect(held, "the queue did not drain")
            let posted = try await host.journal(outcome: "posted").map(\.idempotencyKey)
            #expect(posted == [a.key.rawValue, c.key.rawValue], "the voided row reached the bank: \(posted)")
            #expect(try await terminal.store.entry(for: b.key)?.state == .voided(reason: .duplicate))
            // a is posted now: a void says so, with the bank's reference, and offers a reversal.
            let reference = try #require(try await terminal.store.entry(for: a.key)?.state.reference)
            #expect(await Self.voidRefusal(terminal.store, a.key)
                    == .alreadySent(reference: reference))
            let kinds = try await terminal.store.journalEntries(from: 1, limit: 20).map(\.kind)
            #expect(kinds == [.paymentEnqueued, .paymentEnqueued, .paymentEnqueued, .void, .paymentConfirmed, .paymentConfirmed], "\(kinds)")
            #expect(try await terminal.store.verifyJournal() == .intact(entries: 6))
            await host.stop()
        }

        @Test func aReversalIsPostedByTheBankAsTheReversalOfTheFirst() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let deposit = try await terminal.store.enqueue(HostFixtures.deposit(4_200))
            #expect(await terminal.engine().drainOnce() == nil)
            #expect(try await terminal.store.entry(for: deposit.key)?.state.isConfirmed == true)

            let reversal = try await terminal.store.reverse(deposit.key, by: HostFixtures.tom)
            #expect(await terminal.engine().drainOnce() == nil)
            let stored = try await terminal.store.entry(for: reversal.key)
            #expect(stored?.state.isConfirmed == true, "\(String(describing: stored))")
            let journal = try await host.journal(outcome: "posted")
            #expect(journal.map(\.idempotencyKey) == [deposit.key.rawValue, reversal.key.rawValue])
            #expect(journal.last?.reverses == deposit.key.rawValue)
            #expect(journal.last?.kind == "withdrawal")
            await host.stop()
        }
    }
}
