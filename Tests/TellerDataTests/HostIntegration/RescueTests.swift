@testable import ProcessHarness
import Foundation
import Glibc
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport
@testable import SQLite

extension HostIntegrationTests {
    /// Issue 40, deliverable 5: a dead board loses nothing. A card with 50
    /// queued payments, 12 of which had reached the bank before the board
    /// died, is read (never written), its rescue file imported twice by
    /// another terminal of the branch: each payment posts exactly once.
    @Suite struct RescueTests {
        static let importer = TerminalCredentials(terminalID: "T-0002", secret: "demo-secret-T-0002")

        /// A card as a board left it at a power cut: teller.db with its -wal
        /// and -shm copied while the store is open (the log not checkpointed),
        /// the sealed refresh token beside them, and every file and the
        /// directory made read-only. The store and host stay alive with it.
        struct DeadCard {
            let host: ReferenceHost
            let terminal: Terminal
            let card: TemporaryDirectory
            /// The 50 keys the card holds queued, in order; the first 12 the bank had posted.
            let queued: [IdempotencyKey]
            let confirmed: [IdempotencyKey]
            let tillEvent: Bool

            var dataDirectory: String { card.path }
        }

        static func deadCard(withTill: Bool = true) async throws -> DeadCard {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            // Three payments the card itself saw confirmed: not in the rescue.
            var confirmed: [IdempotencyKey] = []
            for amount in [101, 102, 103] as [Int64] { confirmed.append(try await terminal.store.enqueue(HostFixtures.deposit(amount)).key) }
            let engine = terminal.engine()
            while try await !terminal.isDrained() { _ = await engine.drainOnce() }
            // What SQLite's automatic checkpoint does every 1000 pages: from here on, commits are in the log only.
            try await terminal.store.withDatabase { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
            var queued: [IdempotencyKey] = []
            for index in 0..<50 { queued.append(try await terminal.store.enqueue(HostFixtures.deposit(1_000 + Int64(index))).key) }
            // Sent before the board died; the card never heard the answers.
            for key in queued.prefix(12) {
                let payload = try #require(try await terminal.store.frozenPayload(for: key))
                guard case .posted = try await terminal.client.submit(payload, key: key) else { Issue.record("the host did not post \(key)"); break }
            }
            if withTill { _ = try await terminal.store.open(by: HostFixtures.maria, count: TillCount(currency: .eur, pieces: [5000: 2])) }
            let card = TemporaryDirectory("teller-card")
            let source = terminal.directory.path
            for name in ["teller.db", "teller.db-wal", "teller.db-shm", "refresh-token"] {
                try FileManager.default.copyItem(atPath: source + "/" + name, toPath: card.file(name))
                #expect(chmod(card.file(name), 0o444) == 0)
            }
            #expect(chmod(card.path, 0o555) == 0)
            return DeadCard(host: host, terminal: terminal, card: card, queued: queued, confirmed: confirmed, tillEvent: withTill)
        }

        /// Every file of a directory with its bytes and its modification time, to the nanosecond.
        static func snapshot(_ directory: String) throws -> [String: (bytes: Data, modified: Int, nanoseconds: Int)] {
            var files: [String: (Data, Int, Int)] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                var info = stat()
                #expect(stat(directory + "/" + name, &info) == 0)
                files[name] = (try #require(FileManager.default.contents(atPath: directory + "/" + name)), info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
            }
            return files
        }

        static func importingClient(_ host: ReferenceHost, keeping directory: TemporaryDirectory) throws -> HostClient {
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: host.url, requestTimeout: 10))
            return HostClient(connection: connection, vault: TokenVault(connection: connection, credentials: importer, dataDirectory: directory.path))
        }

        @Test func fiftyQueuedPaymentsAreRescuedAndImportedTwiceAndEachPostsExactlyOnce() async throws {
            let dead = try await Self.deadCard()
            defer { chmod(dead.card.path, 0o755) }
            let before = try Self.snapshot(dead.dataDirectory)
            #expect(Set(before.keys) == ["teller.db", "teller.db-wal", "teller.db-shm", "refresh-token"])
            #expect((before["teller.db-wal"]?.bytes.count ?? 0) > 32, "the card's log holds frames, as a board that died leaves it")

            let result = try await CardRescue.read(from: dead.dataDirectory, credentials: HostFixtures.credentials)

            // Not one byte, time or name of the card changed.
            let after = try Self.snapshot(dead.dataDirectory)
            #expect(Set(after.keys) == Set(before.keys))
            for (name, file) in before {
                let now = try #require(after[name])
                #expect(now.bytes == file.bytes, "\(name) changed")
                #expect(now.modified == file.modified && now.nanoseconds == file.nanoseconds, "\(name)'s mtime changed")
            }
            #expect(result.secretChecked)
            let document = result.document
            #expect(document.terminalID == ReferenceHost.terminalID)
            #expect(document.source.log == .recovered)
            #expect(document.payments.map(\.idempotencyKey) == dead.queued.map(\.rawValue), "the 50 queued rows, in queue order, and not the confirmed ones")
            #expect(document.counts.payments == 50)
            #expect(document.tillEvents.count == 1 && document.counts.tillEvents == 1)
            #expect(document.journal.count == document.counts.journalEntries && document.journal.first?.sequence == 1)
            for payment in document.payments {
                let key = try #require(IdempotencyKey(rawValue: payment.idempotencyKey))
                let frozen = try await dead.terminal.store.frozenPayload(for: key)
                #expect(Array(payment.body.utf8) == frozen, "the frozen body the sync engine sends")
            }
            #expect(try RescueFile.verified(result.file, secret: ReferenceHost.terminalSecret) == document)

            let scratch = TemporaryDirectory("teller-importer")
            let importer = try Self.importingClient(dead.host, keeping: scratch)
            let first = try await importer.importRescue(result.file)
            #expect(first.firstImport)
            #expect(first.payments == .init(posted: 38, alreadyPosted: 12, refused: 0, alreadyRefused: 0))
            #expect(first.tillEvents == .init(recorded: 1, alreadyRecorded: 0, refused: 0))
            #expect(!first.nothingNew)
            let second = try await importer.importRescue(result.file)
            #expect(!second.firstImport)
            #expect(second.payments == .init(posted: 0, alreadyPosted: 50, refused: 0, alreadyRefused: 0))
            #expect(second.tillEvents == .init(recorded: 0, alreadyRecorded: 1, refused: 0))
            #expect(second.nothingNew)

            // The bank's ledger: every key of the terminal posted once, under the dead terminal.
            let postings = try await dead.host.journal(outcome: "posted").map(\.idempotencyKey)
            #expect(postings.count == 53, "3 confirmed on the card + 50 rescued, each once; got \(postings.count)")
            #expect(Set(postings) == Set((dead.confirmed + dead.queued).map(\.rawValue)))
            #expect(try await dead.host.journal().count == 53, "no rejection either")
            await dead.host.stop()
        }

        @Test func anAlteredByteIsRefusedByName() async throws {
            let dead = try await Self.deadCard(withTill: false)
            defer { chmod(dead.card.path, 0o755) }
            var file = try await CardRescue.read(from: dead.dataDirectory, credentials: HostFixtures.credentials).file
            // One digit of the first payment's amount inside the signed document.
            let text = Array(#"\"amount\":1000"#.utf8)
            let start = try #require(file.indices.first { file[$0...].starts(with: text) })
            file[start + text.count - 1] = UInt8(ascii: "9")
            #expect(throws: RescueFileError.signatureMismatch) { try RescueFile.verified(file, secret: ReferenceHost.terminalSecret) }
            let scratch = TemporaryDirectory("teller-importer")
            let importer = try Self.importingClient(dead.host, keeping: scratch)
            let refusal = try #require(await thrownError(HostError.self) { _ = try await importer.importRescue(file) })
            guard case .forbidden(let code, let detail) = refusal else {
                Issue.record("an altered file was not refused as forbidden: \(refusal)")
                return
            }
            #expect(code == "rescue_signature_invalid", "\(detail)")
            #expect(try await dead.host.journal().count == 15, "the 3 the card saw confirmed and the 12 it sent; nothing of the altered file")
            await dead.host.stop()
        }

        @Test func anotherTerminalsSecretIsRefusedByTheCard() async throws {
            let dead = try await Self.deadCard(withTill: false)
            defer { chmod(dead.card.path, 0o755) }
            let wrong = TerminalCredentials(terminalID: "T-0001", secret: "demo-secret-T-0002")
            let refusal = try #require(await thrownError(CardRescueError.self) { _ = try await CardRescue.read(from: dead.dataDirectory, credentials: wrong) })
            #expect(refusal == .secretDoesNotOpenCard(dead.card.file("refresh-token")))
            await dead.host.stop()
        }

        /// A card whose file system needed e2fsck: the log lost, or cut in the middle of a frame.
        @Test func aMissingOrTornLogLeavesWhatTeller_dbAndTheWholeCommitsHold() async throws {
            let dead = try await Self.deadCard(withTill: false)
            defer { chmod(dead.card.path, 0o755) }
            let withoutLog = TemporaryDirectory("teller-card-nolog")
            try FileManager.default.copyItem(atPath: dead.card.file("teller.db"), toPath: withoutLog.file("teller.db"))
            let missing = try await CardRescue.read(from: withoutLog.path, credentials: HostFixtures.credentials).document
            #expect(missing.source.log == .missing)
            #expect(missing.payments.isEmpty, "the 50 were committed to the log only, after the last checkpoint")

            // A log lost before the first checkpoint leaves a teller.db without tables: named, not taken for another application's.
            let fresh = TemporaryDirectory("teller-card-fresh")
            do {
                let store = try TellerStore(dataDirectory: fresh.path, limits: HostFixtures.limits)
                _ = try await store.enqueue(HostFixtures.deposit(500))
                try FileManager.default.copyItem(atPath: fresh.file("teller.db"), toPath: withoutLog.file("fresh.db"))
            }
            let freshCard = TemporaryDirectory("teller-card-fresh-nolog")
            try FileManager.default.moveItem(atPath: withoutLog.file("fresh.db"), toPath: freshCard.file("teller.db"))
            let lost = try #require(await thrownError(DatabaseRefusal.self) { _ = try await CardRescue.read(from: freshCard.path, credentials: HostFixtures.credentials) })
            #expect(lost.reason.kind == DatabaseRefusal.Kind.damaged)
            #expect("\(lost)".contains("lost+found"), "\(lost)")

            let torn = TemporaryDirectory("teller-card-torn")
            for name in ["teller.db", "teller.db-wal"] {
                try FileManager.default.copyItem(atPath: dead.card.file(name), toPath: torn.file(name))
            }
            let log = try #require(FileManager.default.contents(atPath: torn.file("teller.db-wal")))
            #expect(FileManager.default.createFile(atPath: torn.file("teller.db-wal"), contents: log.prefix(log.count - 1_000)))
            let recovered = try await CardRescue.read(from: torn.path, credentials: HostFixtures.credentials).document
            #expect(recovered.source.log == .recovered)
            #expect(recovered.payments.map(\.idempotencyKey) == Array(dead.queued.map(\.rawValue).prefix(recovered.payments.count)),
                    "a prefix of the queue: every whole commit up to the cut")
            #expect(recovered.payments.count >= missing.payments.count)
            await dead.host.stop()
        }

        @Test func aDirectoryWithoutTeller_dbOrWithAnotherDatabaseIsRefusedByName() async throws {
            let empty = TemporaryDirectory("teller-card-empty")
            let error = try #require(await thrownError(DatabaseRefusal.self) { _ = try await CardRescue.read(from: empty.path, credentials: HostFixtures.credentials) })
            #expect(error.reason == DatabaseRefusal.Reason.missing(directoryExists: true))
            #expect(error.path == empty.file("teller.db"))

            var handle: OpaquePointer?
            #expect(sqlite3_open_for_test(empty.file("teller.db"), &handle))
            let refusal = try #require(await thrownError(DatabaseRefusal.self) { _ = try await CardRescue.read(from: empty.path, credentials: HostFixtures.credentials) })
            #expect(refusal.reason.kind == DatabaseRefusal.Kind.foreign)
            #expect(refusal.path == empty.file("teller.db"), "the card's file is named, not the private copy")
        }
    }
}

/// Another application's SQLite database: one table, no schema_migrations.
private func sqlite3_open_for_test(_ path: String, _ handle: inout OpaquePointer?) -> Bool {
    guard let database = try? Database(path: path) else { return false }
    return (try? database.execute("CREATE TABLE recipes (name TEXT)")) != nil
}
