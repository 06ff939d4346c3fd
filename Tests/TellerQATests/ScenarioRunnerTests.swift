import FoundationEssentials
import Testing
import TellerControl
import TellerQA
import Widgets

/// QA scenarios without a terminal: the file format, and the runner against
/// a target whose screen is a tree the test keeps.
@MainActor
@Suite struct ScenarioRunnerTests {
    /// A screen that shows `shown` and says what was done to it.
    final class ScriptedTarget: ScenarioTarget {
        var shown: [String]
        var performed: [ControlCommand] = []
        /// What a tap on an identifier puts on screen instead.
        var onTap: [String: [String]] = [:]

        init(shown: [String]) { self.shown = shown }

        func perform(_ command: ControlCommand) async throws {
            performed.append(command)
            if case .tap(let identifier) = command, let next = onTap[identifier] { shown = next }
        }

        func accessibilityTree() async throws -> AccessibilityNode {
            let children = shown.map { #"{"role":"button","identifier":"\#($0)","frame":{"x":0,"y":0,"width":10,"height":10},"enabled":true,"visible":true,"interactive":true,"children":[]}"# }
            let json = #"{"role":"group","identifier":"screen.home","frame":{"x":0,"y":0,"width":100,"height":100},"enabled":true,"visible":true,"interactive":false,"children":[\#(children.joined(separator: ","))]}"#
            return try JSONDecoder().decode(AccessibilityNode.self, from: Data(json.utf8))
        }

        func screenshot(_ name: String) async throws -> String { "screenshot \(name)" }
        func powerCut(file: String, line: Int) async throws -> String { "no power cut here" }
        func setLink(up: Bool) async throws -> String { "no link here" }
    }

    @Test func stepsRunInOrderAndAnExpectWaitsForTheScreen() async throws {
        let scenario = try Scenario(parsing: "# sign in\ntap home.find\nexpect find.iban\n", path: "qa/find.scenario")
        let target = ScriptedTarget(shown: ["home.find"])
        target.onTap["home.find"] = ["find.iban"]
        var runner = ScenarioRunner(target: target)
        runner.log = { _ in }
        try await runner.run(scenario)
        #expect(target.performed == [.tap(identifier: "home.find")])
    }

    /// A failure names the file and the line, and what was on screen.
    @Test func aFailedExpectNamesTheFileTheLineAndTheScreen() async throws {
        let scenario = try Scenario(parsing: "tap home.find\n\nexpect find.iban\n", path: "qa/find.scenario")
        var runner = ScenarioRunner(target: ScriptedTarget(shown: ["home.find"]))
        runner.expectTimeout = 0.2
        runner.log = { _ in }
        do {
            try await runner.run(scenario)
            Issue.record("the expect passed on a screen without find.iban")
        } catch {
            #expect(error.file == "qa/find.scenario")
            #expect(error.line == 3)
            #expect(error.message.contains("expect find.iban"), "\(error)")
        }
    }

    @Test(arguments: [
        ("tap\n", 1, "tap needs one identifier"),
        ("expect a\ntouch 1\n", 2, "touch needs 2 integers"),
        ("wait-for a soon\n", 1, "wait-for"),
    ])
    func aBadStepNamesItsLine(_ text: String, _ line: Int, _ words: String) {
        do {
            _ = try Scenario(parsing: text, path: "qa/bad.scenario")
            Issue.record("'\(text)' was taken")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(words), "\(error)")
        }
    }
}
