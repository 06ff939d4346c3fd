import TellerConfiguration
import FoundationEssentials

/// The control socket's wire format: the client writes one command line
/// ("tap sign-in.pin.1\n"); the server answers one JSON object on one line,
/// `{"ok": true, "result": …}` or `{"ok": false, "error": "…"}`, and closes.
/// A line may start with a tag, "@ID tap sign-in.pin.1"; the answer then
/// carries `"id": "ID"` (``ControlAnswer/tagged(_:id:)``).
public enum ControlCommand: Equatable, Sendable {
    case status
    case ui
    case screenshot(path: String)
    case touch(x: Int, y: Int)
    /// A finger dragged from one point to another (scrolling lists).
    case swipe(x1: Int, y1: Int, x2: Int, y2: Int)
    case tap(identifier: String)
    case type(text: String)
    case play(path: String)
    /// What `teller ctl screenshot` sends: the PNG comes back in the answer
    /// (base64), so it lands on the caller's side, also across the virtual
    /// device's channel where the terminal cannot see the caller's files.
    case screenshotPNG
    /// What `teller ctl play` sends: the recording itself, read on the
    /// caller's side, for the same reason.
    case playRecording(text: String)
    case sync
    /// Runs a retention pass now instead of at the pruner's next hour
    /// (docs/architecture.md, "Retention"): the crash-states recording's prune.
    case prune
    /// Answers once the view models have handled everything so far (QA drivers that inject through uinput).
    case settle

    /// The largest recording `teller ctl play` takes: minutes of touching,
    /// and small enough to parse without a pause a branch would notice.
    public static let maximumPlayBytes = 16 << 20
    /// The longest command line: a base64 `play-evemu` of the largest recording.
    public static let maximumLineBytes = (maximumPlayBytes + 2) / 3 * 4 + 64

    public static let usage = """
        status | ui | screenshot FILE.png | touch X Y | swipe X1 Y1 X2 Y2 | tap ID | type TEXT | play FILE.evemu | sync | prune | settle
        """

    /// Parses one command line; the error names what is wrong.
    public init(line: String) throws(ControlError) {
        let start = line.drop { $0 == " " || $0 == "\t" }
        let verb = start.prefix { !$0.isWhitespace }
        // Typed text keeps its spaces and newlines; other arguments are trimmed.
        let raw = start.dropFirst(verb.count)
        let rest = verb == "type" ? String(raw.first == " " ? raw.dropFirst() : raw) : String(raw).trimmingWhitespace()
        switch verb {
        case "status": self = .status
        case "ui": self = .ui
        case "sync": self = .sync
        case "prune": self = .prune
        case "settle": self = .settle
        case "screenshot":
            guard !rest.isEmpty else { throw .badCommand("screenshot needs a file name") }
            self = .screenshot(path: rest)
        case "touch":
            let numbers = rest.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2, rest.split(separator: " ").count == 2 else { throw .badCommand("touch needs two integers: touch X Y") }
            self = .touch(x: numbers[0], y: numbers[1])
        case "swipe":
            let numbers = rest.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 4, rest.split(separator: " ").count == 4 else { throw .badCommand("swipe needs four integers: swipe X1 Y1 X2 Y2") }
            self = .swipe(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
        case "tap":
            guard !rest.isEmpty, !rest.contains(" ") else { throw .badCommand("tap needs one identifier (see `teller ctl ui`)") }
            self = .tap(identifier: rest)
        case "type":
            guard !rest.isEmpty else { throw .badCommand("type needs text") }
            self = .type(text: rest.replacing("\\n", with: "\n"))
        case "play":
            guard !rest.isEmpty else { throw .badCommand("play needs an evemu file") }
            self = .play(path: rest)
        case "screenshot-png":
            guard rest.isEmpty else { throw .badCommand("screenshot-png takes nothing; the PNG comes back in the answer") }
            self = .screenshotPNG
        case "play-evemu":
            guard let data = Data(base64Encoded: rest), !rest.isEmpty else {
                throw .badCommand("play-evemu needs the recording in base64")
            }
            self = .playRecording(text: String(decoding: data, as: UTF8.self))
        default:
            throw .badCommand("unknown command '\(verb)'; commands: \(ControlCommand.usage)")
        }
    }

    public var line: String {
        switch self {
        case .status: "status"
        case .ui: "ui"
        case .sync: "sync"
        case .prune: "prune"
        case .settle: "settle"
        case .swipe(let x1, let y1, let x2, let y2): "swipe \(x1) \(y1) \(x2) \(y2)"
        case .screenshot(let path): "screenshot \(path)"
        case .touch(let x, let y): "touch \(x) \(y)"
        case .tap(let identifier): "tap \(identifier)"
        case .type(let text): "type \(Self.escapingLineBreaks(text))"
        case .play(let path): "play \(path)"
        case .screenshotPNG: "screenshot-png"
        case .playRecording(let text): "play-evemu \(Data(text.utf8).base64EncodedString())"
        }
    }

    /// `text` with each line feed written `\n`, so the command stays one line.
    /// By scalar: a CR LF pair is one Character and would hide its line feed.
    private static func escapingLineBreaks(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" { escaped += "\\n".unicodeScalars } else { escaped.append(scalar) }
        }
        return String(escaped)
    }
}

public enum ControlError: Error, CustomStringConvertible, Equatable, Sendable {
    case badCommand(String)
    case failed(String)

    public var description: String {
        switch self {
        case .badCommand(let message), .failed(let message): message
        }
    }
}

/// Builds the one-object answers, and reads them back for `teller ctl`.
public enum ControlAnswer: Sendable {
    /// The tag of a request line and the command after it. A tag is "@"
    /// and 1 to 64 letters, digits or dashes; `teller ctl` tags every request
    /// so that, on a channel clients share one after another (the virtual
    /// device's port, ``ControlBridge``), it can tell its own answer from one
    /// left for a client that has gone.
    public static func splitTag(_ line: String) -> (id: String?, command: String) {
        guard line.hasPrefix("@") else { return (nil, line) }
        let word = line.dropFirst().prefix { $0 != " " }
        guard (1...64).contains(word.count), word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            return (nil, line)
        }
        return (String(word), String(line.dropFirst(word.count + 1).dropFirst()))
    }

    /// `answer` with `"id": id` added; unchanged without an id.
    public static func tagged(_ answer: Data, id: String?) -> Data {
        guard let id, case .object(var fields)? = try? JSONValue(parsing: answer) else { return answer }
        fields["id"] = .string(id)
        return encode(fields)
    }

    public static func ok(_ result: JSONValue = .null) -> Data {
        encode(["ok": .bool(true), "result": result])
    }

    public static func error(_ message: String) -> Data {
        encode(["ok": .bool(false), "error": .string(message)])
    }

    private static func encode(_ answer: [String: JSONValue]) -> Data {
        (try? JSONValue.object(answer).encoded()) ?? Data(#"{"ok":false,"error":"unencodable answer"}"#.utf8)
    }

    /// The `result` of an answer (JSON null when it has none).
    /// - Throws: ``ControlError/failed(_:)`` with the terminal's error, or
    ///   when the answer is not a JSON object.
    public static func result(of answer: Data) throws(ControlError) -> JSONValue {
        guard let object = try? JSONValue(parsing: answer), case .object = object else {
            throw .failed("the terminal's answer is not JSON")
        }
        guard object["ok"] == .bool(true) else {
            guard case .string(let message)? = object["error"] else { throw .failed("failed") }
            throw .failed(message)
        }
        return object["result"] ?? .null
    }
}
