/// One thing to append to the journal: who did what, with the facts that
/// identify it. The store gives it its sequence number, time and hashes
/// (``JournalEntry``) in the same transaction as the change it records.
public struct JournalEvent: Hashable, Sendable {
    public var kind: JournalKind
    /// The operator who did it (for a payment's outcome: who entered the payment).
    public var operatorID: OperatorID
    /// The second identity, for a supervisor's approval; nil otherwise.
    public var supervisorID: OperatorID?
    /// The facts, written into the entry's payload as one JSON object.
    public var details: [String: JournalValue]

    public init(kind: JournalKind, operatorID: OperatorID, supervisorID: OperatorID? = nil, details: [String: JournalValue] = [:]) {
        self.kind = kind
        self.operatorID = operatorID
        self.supervisorID = supervisorID
        self.details = details
    }

    /// The payload as stored and hashed: ``details`` as compact JSON, keys
    /// in byte order, strings escaped as JSONEncoder escapes them. Written
    /// by hand into one string, as the outbox's frozen bodies are, because
    /// this is made inside every enqueue's transaction.
    public var payload: String {
        var json = "{"
        json.reserveCapacity(64 * details.count + 2)
        for (index, (key, value)) in details.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { json.append(",") }
            JournalValue.appendQuoted(key, to: &json)
            json.append(":")
            value.appendJSON(to: &json)
        }
        json.append("}")
        return json
    }
}

/// A value in a journal entry's payload.
public enum JournalValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case bool(Bool)

    /// Appends the value as JSON.
    func appendJSON(to json: inout String) {
        switch self {
        case .text(let value): JournalValue.appendQuoted(value, to: &json)
        case .integer(let value): json.append(String(value))
        case .bool(let value): json.append(value ? "true" : "false")
        }
    }

    /// Appends `value` as a JSON string: the quote, the backslash and the
    /// C0 controls escaped, everything else as it is. Most values (keys,
    /// IBANs, amounts) need no escape and are appended whole.
    static func appendQuoted(_ value: String, to json: inout String) {
        json.append("\"")
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            json.append(value)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": json.append("\\\"")
                case "\\": json.append("\\\\")
                case "\n": json.append("\\n")
                case "\r": json.append("\\r")
                case "\t": json.append("\\t")
                case "\u{08}": json.append("\\b")
                case "\u{0C}": json.append("\\f")
                case "\u{00}"..."\u{1F}": json.append("\\u" + scalar.value.zeroPadded(4, radix: 16))
                default: json.unicodeScalars.append(scalar)
                }
            }
        }
        json.append("\"")
    }
}

extension JournalEvent {
    /// An operator signed in.
    public static func signIn(_ operatorID: OperatorID, mode: SignInMode) -> JournalEvent {
        JournalEvent(kind: .signIn, operatorID: operatorID, details: ["mode": .text(mode == .online ? "online" : "offline")])
    }

    /// An operator signed out.
    public static func signOut(_ operatorID: OperatorID) -> JournalEvent {
        JournalEvent(kind: .signOut, operatorID: operatorID)
    }

    /// A payment committed to the outbox; a reversal when it reverses another.
    public static func enqueued(_ entry: OutboxEntry) -> JournalEvent {
        var details = payment(entry)
        if let reverses = entry.reverses { details["reverses"] = .text(reverses.rawValue) }
        return JournalEvent(kind: entry.reverses == nil ? .paymentEnqueued : .reversal, operatorID: entry.request.operatorID, details: details)
    }

    /// The bank posted the payment under `key`, entered by `operatorID`.
    public static func confirmed(_ key: IdempotencyKey, enteredBy operatorID: OperatorID, reference: String) -> JournalEvent {
        JournalEvent(kind: .paymentConfirmed, operatorID: operatorID, details: ["key": .text(key.rawValue), "host_reference": .text(reference)])
    }

    /// The bank refused the payment under `key`, entered by `operatorID`, for `reason` (its reason code).
    public static func rejected(_ key: IdempotencyKey, enteredBy operatorID: OperatorID, reason: String) -> JournalEvent {
        JournalEvent(kind: .paymentRejected, operatorID: operatorID, details: ["key": .text(key.rawValue), "reason": .text(reason)])
    }

    /// `operatorID` voided the queued payment `entry` for `reason`.
    public static func void(_ entry: OutboxEntry, reason: VoidReason, by operatorID: OperatorID) -> JournalEvent {
        var details = payment(entry)
        details["reason"] = .text(reason.rawValue)
        details["entered_by"] = .text(entry.request.operatorID.rawValue)
        return JournalEvent(kind: .void, operatorID: operatorID, details: details)
    }

    /// A supervisor approved `entry` over the counter limit `violation` named.
    public static func approval(of entry: OutboxEntry, over violation: LimitViolation, by supervisor: OperatorID) -> JournalEvent {
        var details = payment(entry)
        details["limit"] = .text(violation.limitName)
        return JournalEvent(kind: .supervisorApproval, operatorID: entry.request.operatorID, supervisorID: supervisor, details: details)
    }

    /// A supervisor approved the closing count of `till`, off by more than the tolerance.
    public static func approval(ofClosing till: TillSession, by supervisor: OperatorID) -> JournalEvent {
        var details = tillFacts(till)
        details["over_short"] = .integer(till.closing?.overShort.minorUnits ?? 0)
        return JournalEvent(kind: .supervisorApproval, operatorID: till.operatorID, supervisorID: supervisor, details: details)
    }

    /// The till opened with its counted float.
    public static func tillOpened(_ till: TillSession, event key: IdempotencyKey) -> JournalEvent {
        var details = tillFacts(till)
        details["key"] = .text(key.rawValue)
        details["count"] = .text(till.opening.json)
        details["opening"] = .integer(till.opening.total.minorUnits)
        return JournalEvent(kind: .tillOpened, operatorID: till.operatorID, details: details)
    }

    /// The till closed with its count: expected, counted, over or short.
    public static func tillClosed(_ till: TillSession, event key: IdempotencyKey) -> JournalEvent {
        var details = tillFacts(till)
        details["key"] = .text(key.rawValue)
        if let closing = till.closing {
            details["count"] = .text(closing.counted.json)
            details["counted"] = .integer(closing.counted.total.minorUnits)
            details["expected"] = .integer(closing.expected.minorUnits)
            details["over_short"] = .integer(closing.overShort.minorUnits)
        }
        return JournalEvent(kind: .tillClosed, operatorID: till.operatorID, supervisorID: till.closing?.approvedBy, details: details)
    }

    private static func tillFacts(_ till: TillSession) -> [String: JournalValue] {
        ["till": .integer(till.id), "currency": .text(till.currency.code)]
    }

    /// The facts that identify a payment.
    private static func payment(_ entry: OutboxEntry) -> [String: JournalValue] {
        var details: [String: JournalValue] = [
            "key": .text(entry.key.rawValue), "transaction": .text(entry.request.kind.rawValue),
            "account": .text(entry.request.account.electronic), "amount": .integer(entry.request.amount.minorUnits),
            "currency": .text(entry.request.amount.currency.code),
        ]
        if let counterparty = entry.request.counterparty { details["counterparty"] = .text(counterparty.electronic) }
        return details
    }
}

extension JournalEvent {
    /// The terminal itself, for entries no operator made (a ``JournalKind/checkpoint``).
    public static let terminalOperator = OperatorID("0000")!

    /// Retention is about to remove entries `first` to `through` (the
    /// oldest there are): this entry carries the chain over them. `hash` is
    /// entry `through`'s, which the entry after it names as its previous
    /// hash; `day` is the terminal's local day of entry `through`;
    /// `counts` how many entries of each kind are removed.
    public static func checkpoint(first: Int64, through: Int64, hash: String, day: String, counts: [JournalKind: Int]) -> JournalEvent {
        var details: [String: JournalValue] = [
            "first": .integer(first), "through": .integer(through), "through_hash": .text(hash), "through_day": .text(day),
            "entries": .integer(through - first + 1),
        ]
        for (kind, count) in counts { details["count_" + kind.rawValue] = .integer(Int64(count)) }
        return JournalEvent(kind: .checkpoint, operatorID: terminalOperator, details: details)
    }
}
