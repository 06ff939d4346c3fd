import TellerConfiguration
import Widgets
import SystemCalls
import FoundationEssentials

/// A QA scenario: a plain-text list of steps, one per line (docs/qa.md,
/// "Scenarios"). The same file runs in-process on the offscreen display
/// and in the virtual device through uinput.
public struct Scenario: Sendable {
    /// One thing a step does.
    public enum Action: Equatable, Sendable {
        case tap(identifier: String)
        case touch(x: Int, y: Int)
        case swipe(x1: Int, y1: Int, x2: Int, y2: Int)
        /// Typed on a keyboard; `\n` in the file is Enter.
        case type(text: String)
        /// An evemu recording, resolved against the scenario's directory.
        case play(path: String)
        case expect(identifier: String)
        /// Every text whole and every control in sight but for the let-offs (``AccessibilityNode/notWhole(lettingOff:)``).
        case expectWhole(lettingOff: [AccessibilityNode.LetOff])
        case expectText(String)
        case waitFor(identifier: String, timeout: Double)
        /// Until `identifier` is no longer on screen: the status bar's printer badge once every slip is out.
        case waitForGone(identifier: String, timeout: Double)
        /// Like `expectText`, for something that takes longer than the screen settling (a queue draining).
        case waitForText(String, timeout: Double)
        case screenshot(name: String)
        case powerCut
        /// The virtual device's network link cut (`up: false`) or restored by the host.
        case link(up: Bool)
    }

    public struct Step: Equatable, Sendable {
        public let line: Int
        public let action: Action
    }

    public let path: String
    public let steps: [Step]

    /// The name used in reports: the file name without `.scenario`.
    public var name: String { Path.baseName(of: path) }

    public init(contentsOf path: String) throws(ScenarioError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(file: path, line: 0, message: "cannot read the scenario file")
        }
        try self.init(parsing: text, path: path)
    }

    public init(parsing text: String, path: String) throws(ScenarioError) {
        self.path = path
        let directory = Path.directory(of: path)
        var steps: [Step] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = String(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let verb = String(line.prefix { !$0.isWhitespace })
            let rest = String(line.dropFirst(verb.count)).trimmingWhitespace()
            let words = rest.split(separator: " ").map(String.init)
            func fail(_ message: String) -> ScenarioError { ScenarioError(file: path, line: number, message: message) }
            func integers(_ count: Int, usage: String) throws(ScenarioError) -> [Int] {
                let numbers = words.compactMap { Int($0) }
                guard words.count == count, numbers.count == count else { throw fail("\(verb) needs \(count) integers: \(usage)") }
                return numbers
            }
            let action: Action
            switch verb {
            case "tap":
                guard words.count == 1 else { throw fail("tap needs one identifier: tap ID") }
                action = .tap(identifier: rest)
            case "touch":
                let n = try integers(2, usage: "touch X Y")
                action = .touch(x: n[0], y: n[1])
            case "swipe":
                let n = try integers(4, usage: "swipe X1 Y1 X2 Y2")
                action = .swipe(x1: n[0], y1: n[1], x2: n[2], y2: n[3])
            case "type":
                guard !rest.isEmpty else { throw fail("type needs text: type TEXT (\\n is Enter)") }
                action = .type(text: rest.replacing("\\n", with: "\n"))
            case "play":
                guard words.count == 1 else { throw fail("play needs one evemu file: play FILE.evemu") }
                action = .play(path: rest.hasPrefix("/") ? rest : Path.join(directory, rest))
            case "expect":
                guard words.count == 1 else { throw fail("expect needs one identifier: expect ID") }
                action = .expect(identifier: rest)
            case "expect-whole":
                let letOffs = words.compactMap(AccessibilityNode.LetOff.init(word:))
                guard letOffs.count == words.count else {
                    throw fail("expect-whole takes identifier prefixes that may scroll, each as PREFIX or large:PREFIX: expect-whole [PREFIX...]")
                }
                action = .expectWhole(lettingOff: letOffs)
            case "expect-text":
                guard !rest.isEmpty else { throw fail("expect-text needs text: expect-text TEXT") }
                action = .expectText(rest)
            case "wait-for", "wait-for-gone":
                guard (1...2).contains(words.count) else { throw fail("\(verb) needs an identifier and an optional timeout: \(verb) ID [SECONDS]") }
                var timeout = 10.0
                if words.count == 2 {
                    guard let seconds = Double(words[1]), seconds > 0, seconds <= 600 else { throw fail("\(verb): '\(words[1])' is not a timeout in seconds (0-600)") }
                    timeout = seconds
                }
                action = verb == "wait-for" ? .waitFor(identifier: words[0], timeout: timeout) : .waitForGone(identifier: words[0], timeout: timeout)
            case "wait-for-text":
                guard words.count >= 2 else { throw fail("wait-for-text needs a timeout and text: wait-for-text SECONDS TEXT") }
                guard let seconds = Double(words[0]), seconds > 0, seconds <= 600 else { throw fail("wait-for-text: '\(words[0])' is not a timeout in seconds (0-600)") }
                action = .waitForText(String(rest.dropFirst(words[0].count)).trimmingWhitespace(), timeout: seconds)
            case "screenshot":
                guard words.count == 1, rest.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                    throw fail("screenshot needs one name of letters, digits, '-', '_' or '.': screenshot NAME")
                }
                action = .screenshot(name: rest)
            case "power-cut":
                guard words.isEmpty else { throw fail("power-cut takes no arguments") }
                action = .powerCut
            case "link":
                guard words == ["down"] || words == ["up"] else { throw fail("link needs down or up: link down|up") }
                action = .link(up: words == ["up"])
            default:
                throw fail("unknown step '\(verb)'; steps: tap, touch, swipe, type, play, expect, expect-whole, expect-text, wait-for, wait-for-text, screenshot, power-cut, link")
            }
            steps.append(Step(line: number, action: action))
        }
        self.steps = steps
    }
}

/// A scenario that cannot be read or did not pass, at `file:line`.
public struct ScenarioError: Error, CustomStringConvertible, Equatable, Sendable {
    public let file: String
    public let line: Int
    public let message: String

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
