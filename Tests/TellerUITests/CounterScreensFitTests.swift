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

    /// What may scroll or be cut by design (``AccessibilityNode/notWhole(lettingOff:)``);
    /// qa/fit/counter.scenario's `expect-whole` lines name the same:
    /// - always: the till's voided payments and those to settle, one row
    ///   each under the position, as many as the day had (as the queue's rows);
    /// - above text scale 1.0: the till's notes and coins (a dozen tiles),
    ///   the open or closed till's figures above their button
    ///   (TillScreen.body), the receipt's and the review's details beside
    ///   or above their buttons (`receipt.body`, `review.details`), and the
    ///   status bar's sync line, which in a long
    ///   language would otherwise take a third row from the keypads (StatusBar.body).
    ///
    /// At text scale 1.0 every tile and figure is whole and in sight, a refusal shown or not.
    nonisolated static let letOffs: [AccessibilityNode.LetOff] = [
        .init("till.exceptions"),
        .init("till.count.", onlyAtLargeText: true), .init("till.position", onlyAtLargeText: true),
        .init("till.result", onlyAtLargeText: true), .init("receipt.lines", onlyAtLargeText: true),
        .init("review.lines", onlyAtLargeText: true), .init("review.note", onlyAtLargeText: true),
        .init("status.sync", onlyAtLargeText: true),
    ]

    @Test(arguments: cases([.receiptVoid, .approval, .review, .till, .tillOpen, .tillShort, .tillClosed]))
    func everythingIsWholeAndOnScreen(_ c: Case) async throws {
        let shot = ScreenshotTests.Shot(scenario: c.scenario, theme: .standard, textScale: c.textScale, language: c.language)
        let (format, catalog) = try shot.regionalFormat()
        let hidden = try await Localization.with(format, catalog: catalog) {
            let d = try await c.scenario.make()
            return d.layout(c.display, textScale: c.textScale).accessibilityNode(textScale: c.textScale).notWhole(lettingOff: Self.letOffs)
        }
        #expect(hidden.isEmpty, "\(c): \(hidden)")
    }
}
