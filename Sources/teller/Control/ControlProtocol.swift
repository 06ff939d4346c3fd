import Foundation

/// The control socket's wire format: the client writes one command line
/// ("tap sign-in.pin.1\n"); the server answers one JSON object,
/// `{"ok": true, "result": …}` or `{"ok": false, "error": "…"}`, and closes.
enum ControlCommand: Equatable {
    case status
    case ui
    case screenshot(path: String)
    case touch(x: Int, y: Int)
    /// A finger dragged from one point to another (scrolling lists).
    case swipe(x1: Int, y1: Int, x2: Int, y2: Int)
    case tap(identifier: String)
    case type(text: String)
    case play(path: String)
    case sync
    /// Answers once the view models have handled everything so far (QA drivers that inject through uinput).
    case settle

    static let usage = """
        status | ui | screenshot FILE.png | touch X Y | swipe X1 Y1 X2 Y2 | tap ID | type TEXT | play FILE.evemu | sync | settle
        """

    /// Parses one command line; the error names what is wrong.
    init(line: String) throws(ControlError) {
        let start = line.drop { $0 == " " || $0 == "\t" }
        let verb = start.prefix { !$0.isWhitespace }
        // Typed text keeps its spaces and newlines; other arguments are trimmed.
        let raw = start.dropFirst(verb.count)
        let rest = verb == "type" ? String(raw.first == " " ? raw.dropFirst() : raw) : String(raw).trimmingWhitespace()
        switch verb {
        case "status": self = .status
        case "ui": self = .ui
        case "sync": self = .sync
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
            self = .type(text: rest.replacingOccurrences(of: "\\n", with: "\n"))
        case "play":
            guard !rest.isEmpty else { throw .badCommand("play needs an evemu file") }
            self = .play(path: rest)
        default:
            throw .badCommand("unknown command '\(verb)'; commands: \(ControlCommand.usage)")
        }
    }

    var line: String {
        switch self {
        case .status: "status"
        case .ui: "ui"
        case .sync: "sync"
        case .settle: "settle"
        case .swipe(let x1, let y1, let x2, let y2): "swipe \(x1) \(y1) \(x2) \(y2)"
        case .screenshot(let path): "screenshot \(path)"
        case .touch(let x, let y): "touch \(x) \(y)"
        case .tap(let identifier): "tap \(identifier)"
        case .type(let text): "type \(text.replacingOccurrences(of: "\n", with: "\\n"))"
        case .play(let path): "play \(path)"
        }
    }
}

enum ControlError: Error, CustomStringConvertible, Equatable {
    case badCommand(String)
    case failed(String)

    var description: String {
        switch self {
        case .badCommand(let message), .failed(let message): message
        }
    }
}

/// Builds the one-object answers.
enum ControlAnswer {
    static func ok(_ result: Any = NSNull()) -> Data {
        encode(["ok": true, "result": result])
    }

    static func error(_ message: String) -> Data {
        encode(["ok": false, "error": message])
    }

    private static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(#"{"ok":false,"error":"unencodable answer"}"#.utf8)
    }
}
