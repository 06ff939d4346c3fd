import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData

/// `teller journal verify` and `teller journal export --day YYYY-MM-DD`:
/// the electronic journal for auditors and technicians. Both only read, as
/// `teller status` does, with its exit codes for a refused database.
public enum JournalCommand {
    public static func run(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "verify":
            return await verify(Array(arguments.dropFirst()))
        case "export":
            return await export(Array(arguments.dropFirst()))
        default:
            Log.error("teller journal: say verify or export\n\(commandUsage["journal"] ?? "")")
            return 2
        }
    }

    /// Walks the chain: `ok: N entries` and exit 0, or the first broken
    /// entry and exit 1. With `--day YYYY-MM-DD`, only that day's links.
    public static func verify(_ arguments: [String]) async -> Int32 {
        let (day, others) = dayOption(arguments)
        if let day {
            guard let day, isDay(day) else {
                Log.error("teller journal verify: --day needs a date, YYYY-MM-DD")
                return 2
            }
            useConfiguredZone(others)
            return await StatusCommand.printing(others, command: "journal verify") { store, _ in
                switch try await store.verifyJournal(onLocalDay: day) {
                case .intact(let count, let sequences):
                    return (Data(("ok: \(count) \(count == 1 ? "entry" : "entries") of \(day) (sequence \(sequences.lowerBound) to \(sequences.upperBound)),"
                                  + " each linked to the one before; the days before it were not walked (teller journal verify walks them all)\n").utf8), 0)
                case .noEntries:
                    return (Data("ok: no entries on \(day)\n".utf8), 0)
                case .broken(let found):
                    return (Data("broken: \(found)\n".utf8), 1)
                }
            }
        }
        return await StatusCommand.printing(arguments, command: "journal verify") { store, _ in
            switch try await store.verifyJournal() {
            case .intact(let count, let carry):
                return (Data((verifiedLine(count, from: carry) + "\n").utf8), 0)
            case .broken(let found):
                return (Data("broken: \(found)\n".utf8), 1)
            }
        }
    }

    /// "ok: N entries", and once retention removed the oldest, from which
    /// entry the walk began and which checkpoint carried the chain there.
    public static func verifiedLine(_ count: Int, from carry: JournalCarry?) -> String {
        let line = "ok: \(count) \(count == 1 ? "entry" : "entries")"
        guard let carry else { return line }
        let removed = carry.pruned == 1 ? "the 1 entry" : "the \(carry.pruned) entries"
        return line + " from sequence \(carry.first): the checkpoint of \(StatusJSON.timestamp(carry.time).prefix(10)) (entry \(carry.checkpoint))"
            + " carries the chain over \(removed) retention removed before it"
    }

    /// One JSON object a line for each entry of the terminal's local day.
    public static func export(_ arguments: [String]) async -> Int32 {
        let (day, others) = dayOption(arguments)
        guard let day, let day, isDay(day) else {
            Log.error("teller journal export: --day needs a date, YYYY-MM-DD")
            return 2
        }
        useConfiguredZone(others)
        return await StatusCommand.printing(others, command: "journal export") { store, _ in
            var output = Data()
            for entry in try await store.journalEntries(onLocalDay: day) {
                output += try line(entry).encoded() + Data("\n".utf8)
            }
            return (output, 0)
        }
    }

    /// `--day VALUE` taken out of `arguments`: nil when not given, .some(nil) when given without a value.
    static func dayOption(_ arguments: [String]) -> (day: String??, others: [String]) {
        var rest = arguments[...]
        var day: String??
        var others: [String] = []
        while let argument = rest.popFirst() {
            if argument == "--day" {
                day = .some(rest.popFirst())
            } else {
                others.append(argument)
            }
        }
        return (day, others)
    }

    /// The terminal's day, as the running terminal names it: teller.conf's time_zone first.
    static func useConfiguredZone(_ arguments: [String]) {
        let options = CommandLineOptions(arguments)
        if let zone = options.configuration.timeZone { SystemTimeZone.use(zone) }
    }

    /// An entry as export writes it: its columns, the time also as UTC text,
    /// and the payload as the JSON object it is (as text if it is not one).
    public static func line(_ entry: JournalEntry) -> JSONValue {
        let payload = (try? JSONValue(parsing: Data(entry.payload.utf8))) ?? .string(entry.payload)
        return .object([
            "sequence": .integer(Int(entry.sequence)),
            "time_ms": .integer(Int((entry.time.timeIntervalSince1970 * 1000).rounded())),
            "time": .string(StatusJSON.timestamp(entry.time)),
            "kind": .string(entry.kind.rawValue),
            "operator_id": .string(entry.operatorID.rawValue),
            "supervisor_id": entry.supervisorID.map { .string($0.rawValue) } ?? .null,
            "payload": payload,
            "prev_hash": .string(entry.previousHash),
            "hash": .string(entry.hash),
        ])
    }

    /// "YYYY-MM-DD" with a real month and day.
    public static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let month = Int(parts[1]), let dayOfMonth = Int(parts[2]) else { return false }
        return (1...12).contains(month) && (1...31).contains(dayOfMonth)
    }
}
