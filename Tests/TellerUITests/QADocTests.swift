import Foundation
import TellerUI
import Testing
import Widgets

/// docs/qa.md names every identifier QA and `teller ctl tap` can use.
@MainActor
@Suite struct QADocTests {
    /// Identifiers as the doc writes them: row numbers as `<n>`, keypad keys as `<keypad>.<key>`.
    static func documentedForm(_ node: LayoutNode, keypad: String?) -> String? {
        guard let id = node.identifier else { return nil }
        if node.role == .key, let keypad { return keypad + ".<key>" }
        return id.replacingOccurrences(of: #"\.\d+(\.|$)"#, with: ".<n>$1", options: .regularExpression)
    }

    static func identifiers(in tree: LayoutNode) -> Set<String> {
        var result = Set<String>()
        func walk(_ node: LayoutNode, keypad: String?) {
            let isControl = node.interaction != .none || node.identifier?.hasPrefix("status.") == true
                || [.keypad, .list, .textField].contains(node.role)
            if isControl || node.role == .text && node.identifier != nil || node.role == .badge && node.identifier != nil,
               let form = documentedForm(node, keypad: keypad) {
                result.insert(form)
            }
            for child in node.children { walk(child, keypad: node.role == .keypad ? node.identifier : keypad) }
        }
        walk(tree, keypad: nil)
        return result
    }

    @Test func qaDocListsEveryIdentifier() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/qa.md").path
        let doc = try String(contentsOfFile: path, encoding: .utf8)
        var all = Set<String>()
        for scenario in Scenario.allCases {
            let d = try await scenario.make()
            all.formUnion(Self.identifiers(in: d.layout()))
        }
        if ProcessInfo.processInfo.environment["TELLER_LIST_IDS"] == "1" { print(all.sorted().joined(separator: "\n")) }
        for id in all.sorted() {
            #expect(doc.contains("`\(id)`"), "docs/qa.md does not name \(id)")
        }
    }
}
