import Graphics
import TellerUI
import Testing
import Widgets

/// A press or a release changes no layout: ``PressableNodes`` swaps the
/// control's paints in the kept tree. On every screen, for every control
/// that shows a press, that must give exactly the tree a new layout with
/// the control pressed gives, and name only the control's visible frame.
@MainActor
@Suite struct PressInPlaceTests {
    @Test(arguments: Scenario.allCases)
    func pressingInPlaceIsTheLayoutsPress(_ scenario: Scenario) async throws {
        let d = try await scenario.make()
        for display in [Display.small, .large] {
            var context = d.context(display)
            context.state.pressed = nil
            let idle = context.layout(d.view.body(), in: display.size)
            var pressables: [(id: String, visible: Rect)] = []
            func walk(_ node: LayoutNode, clip: Rect) {
                if node.press != nil, let id = node.identifier { pressables.append((id, node.frame.intersection(clip))) }
                for child in node.children { walk(child, clip: node.clipsChildren ? clip.intersection(node.frame) : clip) }
            }
            walk(idle, clip: idle.frame)
            #expect(!pressables.isEmpty, "\(scenario.rawValue): no control shows a press")

            var tree = idle
            var index = PressableNodes(idle, pressed: nil)
            for (id, visible) in pressables {
                context.state.pressed = id
                let laidOut = context.layout(d.view.body(), in: display.size)
                let damage = index.press(id, in: &tree)
                #expect(tree == laidOut, "\(scenario.rawValue) \(display): pressing \(id) in place differs from the layout")
                #expect(damage == (visible.isEmpty ? [] : [visible]), "\(scenario.rawValue): \(id)")
                _ = index.press(nil, in: &tree)
            }
            #expect(tree == idle, "\(scenario.rawValue) \(display): releasing leaves a control pressed")
        }
    }

    /// Sliding from one control to the next redraws both: the one released and the one pressed.
    @Test func movingThePressRedrawsBothControls() async throws {
        let d = try await Scenario.amount.make()
        let context = d.context(.large)
        let idle = context.layout(d.view.body(), in: Display.large.size)
        var tree = idle
        var index = PressableNodes(idle, pressed: nil)
        let one = try #require(idle.node(withIdentifier: "amount.keys.1")).frame
        let two = try #require(idle.node(withIdentifier: "amount.keys.2")).frame
        #expect(index.press("amount.keys.1", in: &tree) == [one])
        #expect(index.press("amount.keys.2", in: &tree) == [one, two])
        #expect(index.press("amount.keys.2", in: &tree).isEmpty, "pressing what is pressed changes nothing")
        #expect(index.press("no.such.control", in: &tree) == [two])
        #expect(tree == idle)
    }
}
