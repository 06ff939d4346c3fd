import TellerUI
import Testing
import Widgets

/// Every button, field and row on every screen reaches a view-model call
/// through ``TerminalView/handleTap(identifier:)``: nothing on screen is dead.
@MainActor
@Suite struct EveryControlTests {
    @Test(arguments: Scenario.allCases)
    func everyControlIsHandled(_ scenario: Scenario) async throws {
        let tree = try await scenario.make().layout()
        var ids: [String] = []
        var keypadsSeen = Set<String>()
        func walk(_ node: LayoutNode, keypad: String?) {
            if let id = node.identifier, node.interaction == .tap || node.interaction == .focus, node.isEnabled {
                // One key per keypad is enough: the keypad decodes the rest the same way.
                if let keypad { if keypadsSeen.insert(keypad).inserted { ids.append(id) } } else { ids.append(id) }
            }
            for child in node.children { walk(child, keypad: node.role == .keypad ? node.identifier : keypad) }
        }
        walk(tree, keypad: nil)
        #expect(!ids.isEmpty)
        for id in ids {
            // A fresh terminal per tap: a tap may leave the screen.
            let d = try await scenario.make()
            #expect(d.view.handleTap(identifier: id), "\(scenario.rawValue): \(id) does nothing")
            await d.coordinator.settle()
        }
    }

    @Test func backButtonsGoBack() async throws {
        for (scenario, back, to) in [(Scenario.amount, AmountEntryScreen.Control.back.rawValue, "account"),
                                     (.findAccount, FindAccountScreen.Control.back.rawValue, "home"),
                                     (.review, ReviewScreen.Control.back.rawValue, "amount"), (.queue, QueueScreen.Control.back.rawValue, "home"),
                                     (.account, AccountScreen.Control.back.rawValue, "find-account"),
                                     (.diagnosticsReport, DiagnosticsScreen.Control.back.rawValue, "home")] {
            let d = try await scenario.make()
            await d.tap(back)
            #expect(d.coordinator.current.screenName == to, "\(back)")
        }
        let d = try await Scenario.home.make()
        await d.tap(HomeScreen.Control.signOut)
        #expect(d.coordinator.current.screenName == "sign-in")
    }
}
