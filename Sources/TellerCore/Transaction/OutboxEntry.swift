import FoundationEssentials

/// A client-generated idempotency key (a UUIDv4), sent with every attempt of
/// one transaction so the host applies it once.
public struct IdempotencyKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// - Returns: nil unless `rawValue` is a canonical UUID.
    public init?(rawValue: String) {
        guard let uuid = UUID(uuidString: rawValue) else { return nil }
        self.rawValue = uuid.uuidString.lowercased()
    }

    public init(_ uuid: UUID) { rawValue = uuid.uuidString.lowercased() }

    /// A fresh random (version 4) key: 122 bits from the system's random
    /// source (getrandom on Linux), spelled as ``init(_:)`` spells a UUID.
    /// Not `UUID()`, which on Linux opens, reads and closes /dev/urandom for
    /// every key: three system calls and a file descriptor per enqueue.
    public static func random() -> IdempotencyKey {
        var generator = SystemRandomNumberGenerator()
        // Bytes 0-7 and 8-15, most significant first; version 4 is the high
        // nibble of byte 6, the RFC 4122 variant the top two bits of byte 8.
        let high = (generator.next() as UInt64) & ~0xF000 | 0x4000
        let low = (generator.next() as UInt64) & ~(0b11 << 62) | (0b10 << 62)
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            for position in 0..<32 {
                if position == 8 || position == 12 || position == 16 || position == 20 {
                    buffer[index] = UInt8(ascii: "-")
                    index += 1
                }
                let nibble = UInt8((position < 16 ? high : low) >> UInt64(60 - 4 * (position % 16)) & 0xF)
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                index += 1
            }
            return index
        }
        return IdempotencyKey(canonical: text)
    }

    /// `rawValue` already in canonical form (lower-case 8-4-4-4-12 hex).
    private init(canonical rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The receipt number printed for the customer and sent to the host as
    /// `client_reference` (docs/host-api.md §6): the key's first eight hex
    /// digits, upper case, so a clerk can find the posting from the slip.
    public var receiptNumber: String { String(rawValue.prefix(8)).uppercased() }
}

/// Where a queued transaction is on its way to the host.
public enum OutboxState: Hashable, Sendable {
    /// Committed on this terminal, waiting to be sent.
    case queued
    /// An attempt is in flight.
    case sending
    /// The host posted it; the reference is the host's.
    case confirmed(reference: String)
    /// The host refused it for good; the operator must acknowledge.
    case rejected(reason: String, acknowledged: Bool)
    /// A person has to look at it: the host could not accept the request
    /// as sent (a 400 or 422), or answered for another request (a mismatch,
    /// which the engine keeps asking the host about under the same key).
    case needsReview(reason: String, acknowledged: Bool)
    /// An operator voided it while it was still queued: it never left the
    /// terminal, and the sync engine never sends it.
    case voided(reason: VoidReason)

    /// A state without what it carries (reference, reason, acknowledgement):
    /// what the outbox's `state` column stores, what `teller status` counts
    /// under, and what the store moves rows between. The raw values are the
    /// stored words, which the schema's CHECK lists; they are spelled out
    /// so that renaming a case cannot change what existing databases hold.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case queued = "queued"
        case sending = "sending"
        case confirmed = "confirmed"
        case rejected = "rejected"
        case needsReview = "needsReview"
        case voided = "voided"

        /// Queued or sending: money that has not reached the host yet.
        public var isPending: Bool { self == .queued || self == .sending }
    }

    public var kind: Kind {
        switch self {
        case .queued: .queued
        case .sending: .sending
        case .confirmed: .confirmed
        case .rejected: .rejected
        case .needsReview: .needsReview
        case .voided: .voided
        }
    }

    /// Queued or sending: money that has not reached the host yet.
    public var isPending: Bool { kind.isPending }

    /// Still to settle: on its way to the bank, or waiting for a person
    /// (a rejection not acknowledged, any row needing review). The queue
    /// shows every such row, however old (``OutboxPort/entries()``).
    public var isStillToSettle: Bool {
        switch self {
        case .queued, .sending, .needsReview: true
        case .rejected(_, let acknowledged): !acknowledged
        case .confirmed, .voided: false
        }
    }
}

/// One row of the outbox, as the queue screen and the sync engine see it.
public struct OutboxEntry: Hashable, Sendable, Identifiable {
    /// Grows with every enqueue; the drain order.
    public let id: Int64
    public let key: IdempotencyKey
    public let request: TransactionRequest
    public let createdAt: Date
    public var state: OutboxState
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var lastError: String?
    /// The class of the last failed attempt, or nil when none failed since the last answer.
    public var lastProblem: SyncProblem.Kind?
    /// How long the sync engine has watched this row wait, in elapsed time
    /// (never wall-clock arithmetic): what the retry horizon counts.
    public var waited: TimeInterval
    /// The payment this one reverses (a posted one), or nil for an ordinary payment.
    public let reverses: IdempotencyKey?

    public init(id: Int64, key: IdempotencyKey, request: TransactionRequest, createdAt: Date, state: OutboxState, attempts: Int = 0, nextAttemptAt: Date? = nil, lastError: String? = nil, lastProblem: SyncProblem.Kind? = nil, waited: TimeInterval = 0, reverses: IdempotencyKey? = nil) {
        self.id = id
        self.key = key
        self.request = request
        self.createdAt = createdAt
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.lastProblem = lastProblem
        self.waited = waited
        self.reverses = reverses
    }
}
