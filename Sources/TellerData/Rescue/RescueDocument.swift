import FoundationEssentials

/// What a rescue file says (docs/architecture.md, "The rescue file"): the
/// payments and till events a dead terminal's card holds that the bank has
/// not acknowledged, each with its idempotency key and the frozen body the
/// sync engine would have sent, and the journal entries since the last
/// export. ``RescueFile`` signs and reads it.
public struct RescueDocument: Codable, Equatable, Sendable {
    /// Always ``RescueFile/formatName``.
    public let format: String
    /// ``RescueFile/version`` when written by this Teller.
    public let version: Int
    /// The dead terminal, whose secret signs the file and under whose keys the bank posts.
    public let terminalID: String
    /// When `teller rescue` wrote the file (RFC 3339, UTC, milliseconds), on the machine that read the card.
    public let createdAt: String
    /// The Teller that wrote the file.
    public let tellerVersion: String
    public let source: Source
    public let counts: Counts
    public let payments: [Payment]
    public let tillEvents: [TillEvent]
    /// Which entries ``journal`` holds.
    public let journalScope: JournalScope
    public let journal: [JournalLine]

    /// The card as it was read.
    public struct Source: Codable, Equatable, Sendable {
        /// The data directory on the card (as given to `--from`).
        public let directory: String
        /// The schema version the card's database had (before its private copy was upgraded, if it was older).
        public let schemaVersion: Int64
        /// What was beside `teller.db`: ``LogState``.
        public let log: LogState
        /// The size of `teller.db-wal`, 0 when there was none.
        public let logBytes: Int64

        enum CodingKeys: String, CodingKey {
            case directory, log
            case schemaVersion = "schema_version"
            case logBytes = "log_bytes"
        }
    }

    /// What the write-ahead log beside `teller.db` was.
    public enum LogState: String, Codable, Sendable {
        /// A log with frames: its commits (up to the first torn frame) were read.
        case recovered
        /// A log without frames: everything was in `teller.db`.
        case empty
        /// No log (e2fsck or a lost file): commits made since the last checkpoint are not on the card.
        case missing
    }

    public struct Counts: Codable, Equatable, Sendable {
        public let payments: Int
        public let tillEvents: Int
        public let journalEntries: Int

        enum CodingKeys: String, CodingKey {
            case payments
            case tillEvents = "till_events"
            case journalEntries = "journal_entries"
        }
    }

    /// One outbox row the bank has not acknowledged.
    public struct Payment: Codable, Equatable, Sendable {
        public let idempotencyKey: String
        /// Its outbox state on the card: queued, sending or needsReview.
        public let state: String
        /// The frozen body, byte for byte as text: what `POST /v1/transactions` sends.
        public let body: String
        public let createdAt: String
        public let attempts: Int
        /// Set once a request for it may have reached the bank.
        public let firstSentAt: String?
        public let lastError: String?

        enum CodingKeys: String, CodingKey {
            case state, body, attempts
            case idempotencyKey = "idempotency_key"
            case createdAt = "created_at"
            case firstSentAt = "first_sent_at"
            case lastError = "last_error"
        }
    }

    /// One till opening or closing the bank has not recorded.
    public struct TillEvent: Codable, Equatable, Sendable {
        public let idempotencyKey: String
        public let tillID: Int64
        /// `opened` or `closed`.
        public let event: String
        /// The frozen body, byte for byte as text: what `POST /v1/till-events` sends.
        public let body: String
        public let createdAt: String
        public let attempts: Int

        enum CodingKeys: String, CodingKey {
            case idempotencyKey = "idempotency_key"
            case tillID = "till_id"
            case event, body, attempts
            case createdAt = "created_at"
        }
    }

    /// Which journal entries the file holds.
    public struct JournalScope: Codable, Equatable, Sendable {
        /// `whole_journal` (the store keeps no record of exports), or `since_export`.
        public let since: String
        /// The entries are those after this sequence number.
        public let afterSequence: Int64

        enum CodingKeys: String, CodingKey {
            case since
            case afterSequence = "after_sequence"
        }
    }

    /// One journal entry with the fields its hash covers, so the bank can walk the chain.
    public struct JournalLine: Codable, Equatable, Sendable {
        public let sequence: Int64
        public let timeMs: Int64
        public let kind: String
        public let operatorID: String
        public let supervisorID: String?
        public let payload: String
        public let prevHash: String
        public let hash: String

        enum CodingKeys: String, CodingKey {
            case sequence, kind, payload, hash
            case timeMs = "time_ms"
            case operatorID = "operator_id"
            case supervisorID = "supervisor_id"
            case prevHash = "prev_hash"
        }
    }

    enum CodingKeys: String, CodingKey {
        case format, version, source, counts, payments, journal
        case terminalID = "terminal_id"
        case createdAt = "created_at"
        case tellerVersion = "teller_version"
        case tillEvents = "till_events"
        case journalScope = "journal_scope"
    }
}
