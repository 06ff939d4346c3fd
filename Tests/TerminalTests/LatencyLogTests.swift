import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `log_latency`: check-config takes true and false and names anything else;
/// the running terminal logs one line per press, release and key with the
/// kernel's time and the presented frame's, and nothing when it is off.
@Suite(.tags(.realProcess)) struct LatencyLogTests {

    func checkConfig(_ text: String) async throws -> (status: Int32, output: String) {
        try await TerminalTests.checkConfig(text, label: "teller-latency-config")
    }

    @Test(arguments: ["true", "false", "yes", "off"]) func aBooleanIsAccepted(_ value: String) async throws {
        let result = try await checkConfig("log_latency = \(value)\n")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: ["sometimes", "2", "\"\""]) func anythingElseIsNamedWithItsLine(_ value: String) async throws {
        let result = try await checkConfig("# latency\nlog_latency = \(value)\n")
        #expect(result.status == 1)
        let shown = value == "\"\"" ? "" : value
        #expect(result.output.contains("teller.conf:2: log_latency: '\(shown)' is not true or false"), "\(result.output)")
    }

    /// `teller ctl tap` sends the press and the release at once, so both are
    /// drawn in one frame and share its time; `type` sends a key.
    @Test func theTerminalLogsEachInputWithItsFrame() async throws {
        let terminal = try TerminalProcess(host: nil, configuration: ["log_latency = true"])
        try await terminal.start()
        try await terminal.tap("sign-in.pin.1")
        try await terminal.ctl("type", "7")
        let lines = try #require(try await latencyLines(of: terminal, atLeast: 3))
        await terminal.stop()

        #expect(lines.map(\.kind) == ["press", "release", "key"], "\(lines)")
        #expect(lines[0].presented == lines[1].presented, "the tap's press and release are one frame: \(lines)")
        for line in lines {
            // The figure is the difference of the two times on the line, to the microsecond.
            #expect(line.microseconds == line.presented - line.input, "\(line)")
            #expect(line.microseconds >= 0, "the input's and the frame's clocks differ: \(line)")
        }
    }

    @Test func offByDefault() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        try await terminal.tap("sign-in.pin.1")
        try await terminal.ctl("type", "7")
        // The typed key is on screen, so its frame has been drawn and presented.
        let typed = try await terminal.waitForText("17")
        await terminal.stop()
        #expect(typed)
        let log = terminal.child?.stderr ?? ""
        #expect(!log.contains("latency:"), "\(log)")
        #expect(log.contains("ready:"), "the log is the terminal's: \(log)")
    }

    struct Line: CustomStringConvertible {
        let kind: String
        let input: Int64
        let presented: Int64
        let microseconds: Int64
        let description: String
    }

    /// Waits for `count` latency lines in the terminal's log, looked for each
    /// time it logs (60 s at most: a hang, not a timing), and parses them.
    func latencyLines(of terminal: TerminalProcess, atLeast count: Int) async throws -> [Line]? {
        guard let child = terminal.child else { return nil }
        func logged() -> [Substring] { child.stderr.split(separator: "\n").filter { $0.contains("latency:") } }
        guard await child.waitForOutput(timeout: .seconds(60), until: { logged().count >= count }) else { return nil }
        return try logged().map(Self.parse)
    }

    /// "<6>latency: press input=812.004120 presented=812.021337 ms=17.217"
    static func parse(_ text: Substring) throws -> Line {
        let words = text.split(separator: " ")
        func field(_ name: String) throws -> String {
            let word = try #require(words.first { $0.hasPrefix(name + "=") }, "no \(name)= in \(text)")
            return String(word.dropFirst(name.count + 1))
        }
        func micros(_ decimal: String, places: Int) throws -> Int64 {
            let parts = decimal.split(separator: ".")
            try #require(parts.count == 2 && parts[1].count == places, "\(decimal) in \(text)")
            let whole = try #require(Int64(parts[0]))
            let fraction = try #require(Int64(parts[1]))
            return whole * (places == 6 ? 1_000_000 : 1000) + (decimal.hasPrefix("-") ? -fraction : fraction)
        }
        try #require(words.count == 5 && words[0] == "<6>latency:", "\(text)")
        return Line(kind: String(words[1]), input: try micros(try field("input"), places: 6),
                    presented: try micros(try field("presented"), places: 6), microseconds: try micros(try field("ms"), places: 3),
                    description: String(text))
    }
}
