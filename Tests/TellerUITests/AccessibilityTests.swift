import Foundation
import TellerFeatures
import TellerUI
import Testing
import Widgets

/// What QA and `teller ctl ui` read: every control named and findable, and
/// never a PIN.
@MainActor
@Suite struct AccessibilityTests {
    @Test(arguments: Scenario.allCases)
    func everyInteractiveElementHasAnIdentifierAndALabel(_ scenario: Scenario) async throws {
        let d = try await scenario.make()
        let json = try d.layout().accessibilityJSON()
        let root = try JSONDecoder().decode(AccessibilityNode.self, from: Data(json.utf8))
        var interactive: [AccessibilityNode] = []
        func walk(_ node: AccessibilityNode) {
            if node.interactive { interactive.append(node) }
            for child in node.children { walk(child) }
        }
        walk(root)
        #expect(!interactive.isEmpty)
        for node in interactive {
            #expect(!(node.identifier ?? "").isEmpty, "\(scenario.rawValue): a \(node.role) without identifier")
            #expect(!(node.label ?? "").isEmpty, "\(scenario.rawValue): \(node.identifier ?? "?") has no label")
            // The screen.element scheme: the screen's name first (status bar and keypads included).
            let id = node.identifier ?? ""
            #expect(id.hasPrefix(scenario.screenName + ".") || id.hasPrefix("status."),
                    "\(scenario.rawValue): \(id) is not in the \(scenario.screenName).element scheme")
        }
        #expect(root.identifier == scenario.screenName)
    }

    @Test func statusBarIsOnEveryScreenButTheTouchTests() async throws {
        for scenario in Scenario.allCases {
            let d = try await scenario.make()
            let tree = d.layout()
            let fullScreen = scenario == .diagnosticsTouchTest || scenario == .diagnosticsCalibration
            for id in ["status.connection", "status.queue", "status.sync", "status.who", "status.clock"] {
                #expect((tree.node(withIdentifier: id) != nil) != fullScreen, "\(scenario.rawValue): \(id)")
            }
        }
    }

    @Test func statusBarSpeaksTheViewModelsWords() async throws {
        let d = try await Scenario.home.make()
        let tree = d.layout()
        let bar = d.coordinator.statusBar
        #expect(tree.node(withIdentifier: "status.connection")?.label == bar.connectionAccessibilityLabel)
        #expect(tree.node(withIdentifier: "status.queue")?.label == "Queue: 1 queued · 250.00 EUR")
        #expect(tree.node(withIdentifier: "status.who")?.label == "Maria Keller · T-0001")
        #expect(tree.node(withIdentifier: "status.sync")?.label == "Synced 2 min ago")
        #expect(tree.node(withIdentifier: "status.clock")?.label == "08:02")
    }

    @Test func aPINNeverAppearsInTheAccessibilityDump() async throws {
        let d = await TerminalDriver()
        await d.key("1001", on: SignInScreen.Control.keypad)
        await d.key("1234", on: SignInScreen.Control.keypad, enter: false)
        let pinStep = try d.layout().accessibilityJSON()
        #expect(!pinStep.contains("1234"))
        #expect(d.layout().node(withIdentifier: SignInScreen.Control.signIn(.pinField).rawValue)?.value == "••••")
        // A hardware keyboard's PIN is hidden as well, and so is the locked screen's.
        await d.type("\u{8}\u{8}\u{8}\u{8}1234\n")
        #expect(d.coordinator.current.screenName == "home")
        await d.tap(HomeScreen.Control.lock)
        await d.key("1234", on: LockedScreen.Control.keypad, enter: false)
        let locked = try d.layout().accessibilityJSON()
        #expect(!locked.contains("1234"))
        #expect(d.layout().node(withIdentifier: LockedScreen.Control.pinField.rawValue)?.value == "••••")
        // The technician PIN too.
        await d.tap(LockedScreen.Control.unlock)
        await d.tap(HomeScreen.Control.diagnostics)
        await d.key("987654", on: DiagnosticsScreen.Control.keypad, enter: false)
        #expect(try !d.layout().accessibilityJSON().contains("987654"))
        #expect(d.layout().allText.allSatisfy { !$0.contains("987654") && !$0.contains("1234") })
    }
}
