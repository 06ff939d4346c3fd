import Graphics
import TellerFeatures
import TellerUI
import Testing
import Widgets
import ProcessTestSupport

/// Every screen and state at both panel sizes, in both themes: on screen,
/// big enough to touch, nothing on top of anything else, text in its box.
@MainActor
@Suite(.tags(.slow)) struct ScreenLayoutTests {
    static let themes: [Theme] = [.standard, .highContrast]

    @Test(arguments: Scenario.allCases)
    func laysOutAtBothSizesInBothThemes(_ scenario: Scenario) async throws {
        let d = try await scenario.make()
        #expect(d.coordinator.current.screenName == scenario.screenName)
        for display in Display.all {
            for theme in Self.themes {
                let (tree, surface) = d.render(display, theme: theme)
                let context = d.context(display, theme: theme)
                let where_ = "\(scenario.rawValue) \(display) \(theme.name)"
                #expect(tree.identifier == scenario.screenName, "\(where_)")
                checkTouchTargets(tree, display: display, minimum: context.minimumTouchPixels, where_)
                checkText(tree, where_)
                #expect(distinctColours(surface) > 3, "\(where_): the screen is blank")
            }
        }
    }

    /// The largest operator text on the smallest panel is where layouts break first.
    @Test(arguments: Scenario.screens + [.amountTransferRecipient])
    func keepsTouchTargetsAtTextScaleTwo(_ scenario: Scenario) async throws {
        let d = try await scenario.make()
        let tree = d.layout(.small, textScale: 2)
        checkTouchTargets(tree, display: .small, minimum: d.context(.small).minimumTouchPixels, "\(scenario.rawValue) text 2")
        // Every button and the clock keep their whole words.
        var checked = 0
        tree.forEach { node in
            let mustBeWhole = node.role == .button || node.role == .badge || node.identifier == "status.clock"
            for paint in node.paints where mustBeWhole {
                if case .text(let text, _, _, _) = paint {
                    checked += 1
                    #expect(!text.hasSuffix("…"), "\(scenario.rawValue) text 2: \(node.identifier ?? "?") reads \"\(text)\"")
                }
            }
        }
        #expect(checked > 0, "\(scenario.rawValue): no button, badge or clock text was checked")
    }

    /// What tells the operator where money goes: an IBAN, an amount, a name
    /// (the holder, the operator) or a receipt number. Cut with an ellipsis,
    /// it can no longer be checked against the customer's card or slip.
    @Test(arguments: Scenario.allCases)
    func neverCutsWhatIdentifiesMoney(_ scenario: Scenario) async throws {
        let d = try await scenario.make()
        var identifying = 0
        for display in Display.all + Display.portrait {
            for theme in Self.themes {
                for textScale in [1.0, 1.5, 2.0] {
                    let tree = d.layout(display, theme: theme, textScale: textScale)
                    tree.forEach { node in
                        let text = [node.label, node.value].compactMap { $0 }.joined(separator: " | ")
                        if Self.identifiesMoney(text) {
                            identifying += 1
                            #expect(!node.isTruncated, """
                                \(scenario.rawValue) \(display) \(theme.name) text \(textScale): \
                                \(node.identifier ?? "\(node.role)") is cut: "\(text)"
                                """)
                        }
                    }
                }
            }
        }
        // Before sign-in there is no operator yet; the touch test and calibration cover the whole display.
        let nothingToIdentify: [Scenario] = [.signIn, .unprovisioned, .signInPIN, .signInLockout, .signInOffline, .diagnosticsTouchTest,
                                             .diagnosticsCalibration]
        #expect(identifying > 0 || nothingToIdentify.contains(scenario),
                "\(scenario.rawValue): nothing that identifies money was checked")
    }

    static func identifiesMoney(_ text: String) -> Bool {
        text.contains(/[A-Z]{2}[0-9]{2}( ?[A-Z0-9]{4}){2,}/)   // an IBAN, grouped or not
            || text.contains(/[0-9]\.[0-9]{2} [A-Z]{3}/)       // an amount with its currency
            || text.contains("Maria Keller") || text.contains("Anna Schmidt")
            || text.contains(/\b[0-9A-F]{8}\b/)                // a receipt number
    }

    func checkTouchTargets(_ tree: LayoutNode, display: Display, minimum: Int, _ where_: String) {
        let screen = Rect(origin: .zero, size: display.size)
        let targets = tree.visibleNodes().filter { item in
            (item.node.interaction == .tap || item.node.interaction == .focus) && !item.visible.isEmpty
        }
        #expect(!targets.isEmpty, "\(where_): nothing to touch")
        var seen = Set<String>()
        for (node, visible) in targets {
            let id = node.identifier ?? "?"
            // A control a scroll area clips is reached by scrolling; its visible part stays on the panel.
            let clipped = visible != node.frame
            #expect(screen.contains(clipped ? visible : node.frame) || node.role == .row, "\(where_): \(id) \(node.frame) leaves the screen")
            #expect(seen.insert(id).inserted, "\(where_): \(id) twice")
            // Rows and controls scrolled half out of view are still fine to touch on their visible part.
            if !clipped {
                #expect(node.frame.width >= minimum && node.frame.height >= minimum,
                        "\(where_): \(id) is \(node.frame.width)x\(node.frame.height), under 48 dp")
            }
        }
        // No control may cover another, except a row and the button inside it.
        for (i, a) in targets.enumerated() {
            for b in targets[(i + 1)...] where a.visible.intersects(b.visible) {
                let nested = a.node.node(withIdentifier: b.node.identifier ?? "") != nil
                    || b.node.node(withIdentifier: a.node.identifier ?? "") != nil
                #expect(nested, "\(where_): \(a.node.identifier ?? "?") overlaps \(b.node.identifier ?? "?")")
            }
        }
    }

    /// Every line of text stays inside its node, so none spills over a neighbour.
    func checkText(_ tree: LayoutNode, _ where_: String) {
        for (node, _) in tree.visibleNodes() {
            for paint in node.paints {
                guard case .text(let text, let spec, _, let baseline) = paint else { continue }
                #expect(baseline.y > node.frame.minY && baseline.y - spec.pixelSize / 2 < node.frame.maxY,
                        "\(where_): \"\(text)\" at \(baseline) is outside \(node.identifier ?? "\(node.role)") \(node.frame)")
                #expect(baseline.x >= node.frame.minX && baseline.x < node.frame.maxX,
                        "\(where_): \"\(text)\" starts outside \(node.identifier ?? "\(node.role)")")
            }
        }
    }

    func distinctColours(_ surface: Surface) -> Int {
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: surface.height, by: 7) {
            let row = surface.row(y)
            for x in stride(from: 0, to: surface.width, by: 7) { colours.insert(row[x]) }
            if colours.count > 16 { break }
        }
        return colours.count
    }
}
