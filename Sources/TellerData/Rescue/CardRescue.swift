import SystemCalls
import FoundationEssentials
import SQLite
import Cryptography
#if canImport(Glibc)
import Glibc
#endif

/// Reads the data directory of a dead terminal's card for `teller rescue`
/// and makes its ``RescueDocument``, without ever writing to the card.
///
/// A WAL database whose `-wal` holds frames cannot be opened read-only
/// without a writable `-shm` (``Database/init(readingOnly:creatingSharedMemory:)``),
/// and a card is mounted read-only. So `teller.db` and whatever of its
/// `-wal`, `-shm` and `-journal` is there are first copied, opened only
/// for reading (`O_RDONLY | O_NOFOLLOW`), into a private directory (0700,
/// files 0600), and the copy is opened as the terminal would open it: its
/// log recovered, an older schema upgraded. The copy is removed afterwards.
///
/// A log that e2fsck removed or that was never written leaves `teller.db`
/// alone: what was committed since its last checkpoint is not on the card
/// (``RescueDocument/LogState/missing``). A torn log is read up to its last
/// whole commit: SQLite stops at the first frame whose checksum fails.
public enum CardRescue {
    /// The database's own files, copied when present.
    static let companions = ["", "-wal", "-shm", "-journal"]

    /// What `teller rescue` found, signed, and whether the secret could be checked against the card.
    public struct Result: Sendable {
        public let document: RescueDocument
        /// The whole rescue file (``RescueFile``), signed with the terminal's secret.
        public let file: [UInt8]
        /// True when the card's sealed refresh token opened with the secret:
        /// it is this terminal's secret. False when the card holds none to check with.
        public let secretChecked: Bool
    }

    /// - Parameters:
    ///   - directory: the card's data directory (`/var/lib/teller` under its mount point).
    ///   - credentials: the dead terminal's id and secret, as the bank knows them.
    /// - Throws: ``DatabaseRefusal`` naming the card's file (missing, empty,
    ///   damaged, foreign, newer, unreadable); ``CardRescueError`` for a
    ///   secret the card refuses or a private copy that cannot be made.
    public static func read(from directory: String, credentials: TerminalCredentials, now: Date = Date()) async throws -> Result {
        let source = directory.appendingPathComponent(TellerStore.fileName)
        let logBytes = try vetSource(source)
        let secretChecked = try checkSecret(credentials.secret, in: directory)
        let copy = try privateDirectory()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let copied = copy.appendingPathComponent(TellerStore.fileName)
        for suffix in companions where (try? Syscall.linkStatus(source + suffix)) != nil {
            try copyFile(source + suffix, to: copied + suffix)
        }
        let log: RescueDocument.LogState = logBytes.map { $0 > 32 ? .recovered : .empty } ?? .missing
        var version: Int64 = 0
        let contents: (payments: [RescueDocument.Payment], tillEvents: [RescueDocument.TillEvent],
                       journalScope: RescueDocument.JournalScope, journal: [RescueDocument.JournalLine])
        do {
            let store = try TellerStore(rescuing: copied, schemaVersion: &version)
            contents = try await store.rescueContents()
        } catch let refusal as DatabaseRefusal {
            // The technician's card, not our copy, is what the message is about.
            if case .foreign(let tables) = refusal.reason, tables.isEmpty, log == .missing {
                throw DatabaseRefusal(path: source, reason: .damaged(
                    "it holds no tables and there is no \(TellerStore.fileName)-wal beside it: everything the terminal wrote is in that lost log; "
                    + "look for it in lost+found on the card's image (e2fsck moves orphaned files there), put it beside teller.db as teller.db-wal and read the image again"))
            }
            throw DatabaseRefusal(path: source, reason: refusal.reason)
        } catch let error as SQLiteError {
            throw DatabaseRefusal(path: source, reason: .damaged(error.message.replacing(copied, with: source)))
        }
        let document = RescueDocument(
            format: RescueFile.formatName, version: RescueFile.version, terminalID: credentials.terminalID, createdAt: WireTransaction.timestamp(now),
            tellerVersion: BuildInfo.version,
            source: .init(directory: directory, schemaVersion: version, log: log, logBytes: logBytes ?? 0),
            counts: .init(payments: contents.payments.count, tillEvents: contents.tillEvents.count, journalEntries: contents.journal.count),
            payments: contents.payments, tillEvents: contents.tillEvents, journalScope: contents.journalScope, journal: contents.journal)
        return Result(document: document, file: try RescueFile.signed(document, secret: credentials.secret), secretChecked: secretChecked)
    }

    /// Refuses a card without its database, as `teller status` would name it,
    /// and returns the size of its `-wal` (nil when there is none).
    private static func vetSource(_ source: String) throws -> Int64? {
        do {
            let info = try Syscall.linkStatus(source)
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw DatabaseRefusal(path: source, reason: .damaged("it is not a regular file (a symbolic link would point into this machine, not the card)"))
            }
            guard info.st_size > 0 else { throw DatabaseRefusal(path: source, reason: .empty) }
        } catch let error as SystemCallError {
            switch error.errno {
            case .noSuchFile, .notADirectory:
                let directoryExists = (try? Syscall.fileStatus(source.parentDirectory)).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
                throw DatabaseRefusal(path: source, reason: .missing(directoryExists: directoryExists))
            default:
                throw DatabaseRefusal(path: source, reason: .unreadable(error.reason))
            }
        }
        return (try? Syscall.linkStatus(source + "-wal")).map { Int64($0.st_size) }
    }

    /// The terminal sealed its refresh token under a key derived from its
    /// secret (``SealedBox``): a secret that does not open it is another
    /// terminal's, and a file signed with it would post under the wrong
    /// terminal's keys. Returns false when the card holds no sealed token.
    private static func checkSecret(_ secret: String, in directory: String) throws(CardRescueError) -> Bool {
        let path = directory.appendingPathComponent("refresh-token")
        guard let stored = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }), SealedBox.isSealed(stored) else { return false }
        guard SealedBox(secret: secret, purpose: "refresh-token").open(stored) != nil else { throw .secretDoesNotOpenCard(path) }
        return true
    }

    private static func privateDirectory() throws(CardRescueError) -> String {
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = parent.appendingPathComponent("teller-rescue-" + String(UInt64.random(in: 0...UInt64.max), radix: 36))
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .privateCopy("cannot create \(path): \(error)")
        }
        return path
    }

    /// Copies one file of the card, read without following a link and never opened for writing.
    private static func copyFile(_ source: String, to target: String) throws {
        let input: FileDescriptor
        do {
            input = try FileDescriptor.open(source, O_RDONLY | O_NOFOLLOW)
        } catch {
            throw DatabaseRefusal(path: source, reason: .unreadable(error.errno == .tooManySymbolicLinks
                ? "it is a symbolic link, which would point into this machine, not the card" : error.reason))
        }
        let output: FileDescriptor
        do {
            output = try FileDescriptor.open(target, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        } catch {
            throw CardRescueError.privateCopy("cannot create \(target): \(error.reason)")
        }
        while true {
            let chunk: [UInt8]
            do { chunk = try input.read(filling: 1 << 20) } catch {
                throw DatabaseRefusal(path: source, reason: .unreadable("reading it failed: \(error.reason) (image the card with dd and read the image)"))
            }
            if chunk.isEmpty { return }
            do { try output.writeAll(chunk) } catch {
                throw CardRescueError.privateCopy("cannot write \(target): \(error.reason)")
            }
        }
    }
}

/// What stops `teller rescue` other than the card's database itself.
public enum CardRescueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The secret given does not open the card's sealed refresh token.
    case secretDoesNotOpenCard(String)
    /// The private copy could not be made (the temporary directory: TMPDIR or /tmp).
    case privateCopy(String)

    public var description: String {
        switch self {
        case .secretDoesNotOpenCard(let path):
            "the secret given does not open \(path), which this terminal sealed with its own secret: it is another terminal's secret (check the terminal id and the Vault entry); nothing was written"
        case .privateCopy(let detail):
            "cannot copy the card's database to a private directory (TMPDIR or /tmp): \(detail); the card was not written"
        }
    }
}
