import Foundation
import TellerCore
import TellerFeatures
import Testing
import Widgets

/// The screens where a clerk decides something about money (the void, the
/// supervisor's approval, the till and its close) on both panels, at text
/// scale 1.0 and 2.0, in English, German and Arabic: every text and every
/// control is whole and on screen. A node cut with an ellipsis
/// (`truncated`) or out of sight (`visible: false`, below the fold of a
/// scroll area) is named, as `teller ctl ui` would show it.
@MainActor
@Suite struct CounterScreensFitTests {
    struct Case: CustomStringConvertible, Sendable {
        var scenario: Scenario
        var display: Display
        var textScale: Double
        var language: Language
        var description: String { "\(scenario.rawValue) \(display) text \(textScale) \(language.code)" }
    }

    nonisolated static func cases(_ scenarios: [Scenario]) -> [Case] {
        scenarios.flatMap { scenario in
            Display.all.flatMap { display in
                [1.0, 2.0].flatMap { scale in
                    [Language.english, .german, .arabic].map { Case(scenario: scenario, display: display, textScale: scale, language: $0) }
                }
            }
        }
    }

    /// Every node a reader or a finger needs that is cut or out of sight,
    /// as "identifier or label: why": no text may be cut; a control or an
    /// identified element (a field, a message) may not be out of sight.
    /// Plain text may scroll (long instructions at text scale 2.0 do), and
    /// so may the rows of a list (``scrollingLists``).
    /// Lists, one row per item, that scroll at large text by design: the
    /// till's notes and coins (a dozen tiles), as the queue's rows do.
    nonisolated static let scrollingLists = ["till.count."]

    /// At text scale 2.0 the status bar's sync line may be shortened: in a
    /// long language the bar would otherwise take a third row from the
    /// keypads below it (StatusBar.body).
    nonisolated static func hidden(in node: AccessibilityNode, textScale: Double) -> [String] {
        var found: [String] = []
        func walk(_ node: AccessibilityNode) {
            let name = node.identifier ?? node.label ?? node.value
            if let name, node.truncated == true, !(name == "status.sync" && textScale > 1) { found.append("\(name): cut with an ellipsis") }
            if let name, !node.visible, node.interactive || node.identifier != nil, !Self.scrollingLists.contains(where: { name.hasPrefix($0) }) {
                found.append("\(name): out of sight")
            }
            node.children.forEach(walk)
        }
        walk(node)
        return found
    }

    @Test(arguments: cases([.receiptVoid, .approval, .till, .tillOpen, .tillShort, .tillClosed]))
    func everythingIsWholeAndOnScreen(_ c: Case) async throws {
        let shot = ScreenshotTests.Shot(scenario: c.scenario, theme: .standard, textScale: c.textScale, language: c.language)
        let (format, catalog) = try shot.regionalFormat()
        let hidden = try await Localization.with(format, catalog: catalog) {
            let d = try await c.scenario.make()
            return Self.hidden(in: d.layout(c.display, textScale: c.textScale).accessibilityNode, textScale: c.textScale)
        }
        guard !Self.knownCut.contains(c.description) else {
            // Recorded, not hidden: the day these fit, the known issue is not
            // recorded, this fails, and the case leaves the list.
            withKnownIssue("German at text scale 2.0: the title row (Back, the title, the till's action) is cut with an ellipsis") {
                #expect(hidden.isEmpty, "\(c): \(hidden)")
            }
            return
        }
        #expect(hidden.isEmpty, "\(c): \(hidden)")
    }

    /// Where German at text scale 2.0 still cuts the title row: its Back,
    /// its title and the till's action share one row of a narrow column
    /// (ScreenParts.topRow). A row that keeps them whole widened the column
    /// and squeezed the keypad's keys under 48 dp, which is worse; not yet fixed.
    nonisolated static let knownCut: Set<String> = [
        "till 800x480 text 2.0 de", "till-short 800x480 text 2.0 de", "till-short 1280x800 text 2.0 de",
        "approval 800x480 text 2.0 de", "approval 1280x800 text 2.0 de",
    ]
}
