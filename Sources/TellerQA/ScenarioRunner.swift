import TellerControl
import TellerConfiguration
import FoundationEssentials
import Widgets

/// Where a scenario's steps happen: the terminal in this process, or a
/// running terminal touched through uinput (the virtual device).
@MainActor
public protocol ScenarioTarget: AnyObject {
    /// Performs tap, touch, swipe, type or play, and returns once the
    /// terminal has handled it.
    func perform(_ command: ControlCommand) async throws
    /// What is on screen now.
    func accessibilityTree() async throws -> AccessibilityNode
    /// Takes the screenshot `name`; returns a line for the report, or throws when it differs from its golden.
    func screenshot(_ name: String) async throws -> String
    /// Cuts the power at line `line` of scenario `file`; returns a note when the target cannot.
    func powerCut(file: String, line: Int) async throws -> String
    /// Has the network link cut or restored; returns a line for the report, or a note when the target cannot.
    func setLink(up: Bool) async throws -> String
}

/// Runs scenarios step by step against a target and reports each failure
/// with the file and line.
@MainActor
public struct ScenarioRunner: Sendable {
    public let target: any ScenarioTarget
    /// How long `expect` waits for the screen to settle (input through the kernel is not instant).
    public var expectTimeout: Double = 2
    public var log: (String) -> Void = { print($0) }

    public init(target: any ScenarioTarget) {
        self.target = target
    }

    /// Runs `scenario` from `startLine` on; throws the first failure.
    public func run(_ scenario: Scenario, from startLine: Int = 1) async throws(ScenarioError) {
        for step in scenario.steps where step.line >= startLine {
            do {
                try await perform(step, in: scenario)
            } catch let error as ScenarioError {
                throw error
            } catch {
                throw ScenarioError(file: scenario.path, line: step.line, message: "\(error)")
            }
        }
    }

    private func perform(_ step: Scenario.Step, in scenario: Scenario) async throws {
        func fail(_ message: String) -> ScenarioError { ScenarioError(file: scenario.path, line: step.line, message: message) }
        switch step.action {
        case .tap(let identifier):
            try await target.perform(.tap(identifier: identifier))
        case .touch(let x, let y):
            try await target.perform(.touch(x: x, y: y))
        case .swipe(let x1, let y1, let x2, let y2):
            try await target.perform(.swipe(x1: x1, y1: y1, x2: x2, y2: y2))
        case .type(let text):
            try await target.perform(.type(text: text))
        case .play(let path):
            try await target.perform(.play(path: path))
        case .expect(let identifier):
            if let screen = try await waitFor(within: expectTimeout, { $0.node(identifier: identifier) != nil }) {
                throw fail("expect \(identifier): not on screen '\(screen)'")
            }
        case .expectWhole(let letOffs):
            // The screen settles first (a new screen, a refusal coming); then what is cut stays cut.
            var problems: [String] = []
            if let screen = try await waitFor(within: expectTimeout, { tree in problems = tree.notWhole(lettingOff: letOffs); return problems.isEmpty }) {
                throw fail("expect-whole: on screen '\(screen)', not whole: \(problems.joined(separator: "; "))")
            }
        case .expectText(let text):
            if let screen = try await waitFor(within: expectTimeout, { $0.contains(text: text) }) {
                throw fail("expect-text '\(text)': no label or value on screen '\(screen)' contains it")
            }
        case .waitFor(let identifier, let timeout):
            if let screen = try await waitFor(within: timeout, { $0.node(identifier: identifier) != nil }) {
                throw fail("wait-for \(identifier): not there after \(timeout.shortText) s; screen '\(screen)'")
            }
        case .waitForGone(let identifier, let timeout):
            if let screen = try await waitFor(within: timeout, { $0.node(identifier: identifier) == nil }) {
                throw fail("wait-for-gone \(identifier): still there after \(timeout.shortText) s; screen '\(screen)'")
            }
        case .waitForText(let text, let timeout):
            if let screen = try await waitFor(within: timeout, { $0.contains(text: text) }) {
                throw fail("wait-for-text '\(text)': no label or value on screen '\(screen)' contains it after \(timeout.shortText) s")
            }
        case .screenshot(let name):
            log("scenario: \(scenario.name):\(step.line): \(try await target.screenshot(name))")
        case .powerCut:
            log("scenario: \(scenario.name):\(step.line): \(try await target.powerCut(file: scenario.path, line: step.line))")
        case .link(let up):
            log("scenario: \(scenario.name):\(step.line): \(try await target.setLink(up: up))")
        }
    }

    /// Polls the screen until `condition` holds; nil when it did, otherwise the screen's name.
    private func waitFor(within seconds: Double, _ condition: (AccessibilityNode) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let tree = try await target.accessibilityTree()
            if condition(tree) { return nil }
            if Date() >= deadline { return tree.identifier ?? "unnamed" }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

extension AccessibilityNode {
    /// The first node with `identifier`, depth first.
    public func node(identifier wanted: String) -> AccessibilityNode? {
        if identifier == wanted { return self }
        for child in children {
            if let found = child.node(identifier: wanted) { return found }
        }
        return nil
    }

    /// Whether any label or value in the subtree contains `text`.
    public func contains(text: String) -> Bool {
        if label?.contains(text) == true || value?.contains(text) == true { return true }
        return children.contains { $0.contains(text: text) }
    }
}
