import FoundationEssentials

/// The bank's answer to `POST /v1/rescues` (docs/host-api.md §12): what it
/// did with each payment and till event of a rescue file.
public struct RescueImportReport: Decodable, Equatable, Sendable {
    /// The dead terminal the file is of.
    public let terminalID: String
    /// False when the bank had imported this very file before.
    public let firstImport: Bool
    public let payments: Payments
    public let tillEvents: TillEvents
    /// Journal entries the bank received and keeps with the file.
    public let journalEntries: Int
    /// The payments and till events not posted or recorded, with the bank's reasons (at most 100).
    public let refusals: [Refusal]
    /// Refusals beyond those listed.
    public let refusalsOmitted: Int

    public struct Payments: Decodable, Equatable, Sendable {
        /// Posted by this import.
        public let posted: Int
        /// Posted before, by the terminal itself or an earlier import: not posted again.
        public let alreadyPosted: Int
        /// Refused by this import (a business rejection, a body the bank cannot take).
        public let refused: Int
        /// Rejected before, by an answer the terminal never recorded or an earlier import.
        public let alreadyRefused: Int

        enum CodingKeys: String, CodingKey {
            case posted, refused
            case alreadyPosted = "already_posted"
            case alreadyRefused = "already_refused"
        }
    }

    public struct TillEvents: Decodable, Equatable, Sendable {
        public let recorded: Int
        public let alreadyRecorded: Int
        public let refused: Int

        enum CodingKeys: String, CodingKey {
            case recorded, refused
            case alreadyRecorded = "already_recorded"
        }
    }

    public struct Refusal: Decodable, Equatable, Sendable {
        /// `payment` or `till_event`.
        public let item: String
        public let idempotencyKey: String
        /// The bank's rejection reason or problem code.
        public let reason: String
        public let detail: String
        /// True when the bank decided it before this import.
        public let decidedBefore: Bool

        enum CodingKeys: String, CodingKey {
            case item, reason, detail
            case idempotencyKey = "idempotency_key"
            case decidedBefore = "decided_before"
        }
    }

    /// True when this import posted and recorded nothing: a file imported before, or one whose every payment the bank had.
    public var nothingNew: Bool { payments.posted == 0 && payments.refused == 0 && tillEvents.recorded == 0 && tillEvents.refused == 0 }

    enum CodingKeys: String, CodingKey {
        case payments, refusals
        case terminalID = "terminal_id"
        case firstImport = "first_import"
        case tillEvents = "till_events"
        case journalEntries = "journal_entries"
        case refusalsOmitted = "refusals_omitted"
    }
}
