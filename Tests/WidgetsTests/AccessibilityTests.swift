import Foundation
import Graphics
import Testing
import Widgets

@Suite struct AccessibilityTests {
    @Test func everyInteractiveElementHasAnIdentifierAndALabel() {
        for screen in TellerScreens.all {
            let tree = makeContext(state: screen.state).layout(screen.widget, in: Size(width: 800, height: 480))
            let interactive = tree.interactiveNodes
            #expect(!interactive.isEmpty)
            for node in interactive {
                #expect(node.identifier?.isEmpty == false, "\(screen.name): \(node.role) at \(node.frame) has no identifier")
                #expect(node.label?.isEmpty == false, "\(screen.name): \(node.identifier ?? "?") has no label")
            }
        }
    }

    /// QA reads from the tree which text is shown cut: a label, a wrapped
    /// label out of lines, a button, a list row. Text that fits says nothing.
    @Test func truncatedTextIsMarked() throws {
        let iban = "DE54 5001 0517 0426 3971 58"
        let tree = makeContext().layout(VStack(alignment: .start, [
            Frame(width: 120, Label(iban, identifier: "cut")),
            Frame(width: 120, Label(iban, maxLines: 2, identifier: "cut-wrapped")),
            Frame(width: 120, Label(iban, maxLines: 4, identifier: "wrapped")),
            Label(iban, identifier: "whole"),
            Frame(width: 60, Button("Acknowledge", identifier: "button")),
            Frame(height: 200, List(identifier: "list", label: "List", rows: [ListRow(identifier: "row", title: iban)])),
        ]), in: Size(width: 800, height: 480))
        let root = try JSONDecoder().decode(AccessibilityNode.self, from: Data(try tree.accessibilityJSON().utf8))
        var truncated: [String: Bool?] = [:]
        func walk(_ node: AccessibilityNode) {
            if let id = node.identifier { truncated[id] = node.truncated }
            node.children.forEach(walk)
        }
        walk(root)
        #expect(truncated["cut"] == .some(true))
        #expect(truncated["cut-wrapped"] == .some(true))
        #expect(truncated["button"] == .some(true))
        #expect(truncated["wrapped"] == .some(nil))
        #expect(truncated["whole"] == .some(nil))
        // A row wraps its title rather than cut it.
        #expect(truncated["row"] == .some(nil))
        #expect(try tree.accessibilityJSON().contains("\"truncated\" : true"))
    }

    @Test func jsonDumpListsControlsWithRoleFrameAndState() throws {
        let tree = makeContext().layout(TellerScreens.signIn(pin: "1234"), in: Size(width: 800, height: 480))
        let json = try tree.accessibilityJSON()
        let root = try JSONDecoder().decode(AccessibilityNode.self, from: Data(json.utf8))
        var flat: [AccessibilityNode] = []
        func walk(_ node: AccessibilityNode) {
            flat.append(node)
            node.children.forEach(walk)
        }
        walk(root)
        #expect(root.role == .screen)
        #expect(root.identifier == "sign-in")
        let seven = flat.first { $0.identifier == "sign-in.pin.7" }
        #expect(seven?.role == .key)
        #expect(seven?.label == "7")
        #expect(seven?.enabled == true)
        #expect(seven?.interactive == true)
        #expect((seven?.frame.width ?? 0) >= 48)
        #expect(flat.first { $0.identifier == "sign-in.pin.backspace" }?.label == "Delete")
        let pin = flat.first { $0.identifier == "sign-in.pin-field" }
        #expect(pin?.role == .textField)
        #expect(pin?.value == "\u{2022}\u{2022}\u{2022}\u{2022}")
        #expect(!json.contains("1234"))
        #expect(flat.first { $0.identifier == "sign-in.operator" }?.value == "40127")
        #expect(json.contains("\"identifier\" : \"sign-in.pin.enter\""))
        #expect(!flat.contains { $0.role == .spacer })
    }
}
