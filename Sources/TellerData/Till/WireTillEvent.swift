import FoundationEssentials
import TellerCore

/// The body of `POST /v1/till-events` (docs/host-api.md, "Till events"):
/// a till's opening or closing, encoded once when it is committed and
/// frozen in its `till_events` row, so every retry sends the same bytes.
struct WireTillEvent: Codable, Equatable {
    /// "opened" or "closed".
    let event: String
    /// The terminal's own number for the till; one opening and one closing each.
    let tillID: Int64
    let operatorID: String
    let currency: String
    let at: String
    /// Pieces per denomination (minor units, as text keys): the float at
    /// opening, the count at closing.
    let count: [String: Int]
    /// What `count` adds up to.
    let total: Int64
    /// At closing: the cash position the count is compared with.
    let expected: Int64?
    /// At closing: counted minus expected (negative: short).
    let overShort: Int64?
    /// At closing beyond the tolerance: the supervisor who approved it.
    let approvedBy: String?
    /// Only present, and true, when the terminal's clock was below its trusted floor.
    let clockUnverified: Bool?

    enum CodingKeys: String, CodingKey {
        case event, currency, at, count, total, expected
        case tillID = "till_id"
        case operatorID = "operator_id"
        case overShort = "over_short"
        case approvedBy = "approved_by"
        case clockUnverified = "clock_unverified"
    }

    init(opened till: TillSession, at date: Date, clockUnverified: Bool) {
        self.init(till, event: "opened", count: till.opening, at: date, clockUnverified: clockUnverified)
    }

    init(closed till: TillSession, at date: Date, clockUnverified: Bool) {
        self.init(till, event: "closed", count: till.closing?.counted ?? till.opening, at: date, clockUnverified: clockUnverified)
    }

    private init(_ till: TillSession, event: String, count: TillCount, at date: Date, clockUnverified: Bool) {
        self.event = event
        tillID = till.id
        operatorID = till.operatorID.rawValue
        currency = till.currency.code
        at = WireTransaction.timestamp(date)
        self.count = Dictionary(uniqueKeysWithValues: count.pieces.map { (String($0.key), $0.value) })
        total = count.total.minorUnits
        expected = event == "closed" ? till.closing?.expected.minorUnits : nil
        overShort = event == "closed" ? till.closing?.overShort.minorUnits : nil
        approvedBy = event == "closed" ? till.closing?.approvedBy?.rawValue : nil
        self.clockUnverified = clockUnverified ? true : nil
    }

    /// The frozen bytes: sorted keys, absent optionals left out.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
