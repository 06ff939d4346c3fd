import Foundation
import Graphics
import TellerCore
import TellerFeatures
import TellerUI
import Testing
import Widgets
import ProcessTestSupport

/// Every screen in pseudo-localization and in German, at text scales 1.0
/// and 2.0: text that did not come through the catalog shows up unbracketed,
/// and the longer words must not cut what identifies money or make controls
/// overlap.
@MainActor
@Suite(.tags(.realProcess, .slow)) struct LocalizedScreenTests {
    static let pseudo = RegionalFormat(language: .pseudo)

    /// Pseudo brackets every catalog string and isolates every piece of data
    /// (Localization.leftToRight / verbatim); what is left must hold no words.
    @Test(arguments: Scenario.allCases)
    func everyWordOnScreenComesFromTheCatalog(_ scenario: Scenario) async throws {
        try await Localization.with(Self.pseudo) {
            let d = try await scenario.make()
            var checked = 0
            for textScale in [1.0, 2.0] {
                d.layout(.small, textScale: textScale).forEach { node in
                    // A key of the letter keyboard types its Latin letter in every language.
                    for text in [node.label, node.value].compactMap({ $0 }) where text.count > 1 {
                        checked += 1
                        let leftover = Self.bypassedCatalog(text)
                        #expect(leftover == nil, """
                            \(scenario.rawValue) text \(textScale): \(node.identifier ?? "\(node.role)") shows "\(text)": \
                            "\(leftover ?? "")" did not come through the catalog
                            """)
                    }
                }
            }
            // The touch test and calibration cover the display with a few words.
            #expect(checked > 5, "\(scenario.rawValue): only \(checked) texts checked")
        }
    }

    /// The words of `text` that neither the catalog nor a data formatter
    /// produced, or nil when there are none.
    static func bypassedCatalog(_ text: String) -> String? {
        Localization.wordsOutsideTheCatalog(text)
    }

    /// The checker itself: catalog text and data pass, a bare English word does not.
    @Test func theCheckerCatchesTextThatSkippedTheCatalog() {
        Localization.with(Self.pseudo) {
            let translated = tr("Hello, {name}", ["name": Localization.verbatim("Maria Keller")])
            #expect(Self.bypassedCatalog(translated) == nil, "\(translated)")
            #expect(Self.bypassedCatalog(Localization.leftToRight("DE89 3704 0044 0532 0130 00")) == nil)
            #expect(Self.bypassedCatalog(tr("Queue") + " · " + Localization.leftToRight("12.50 EUR")) == nil)
            #expect(Self.bypassedCatalog("Queue") == "Queue")
            #expect(Self.bypassedCatalog(tr("Queue") + " · 12.50 EUR") != nil)
            #expect(Self.bypassedCatalog("\(tr("Synced {when}", ["when": "2 min ago"]))") == nil, "inside the brackets")
            #expect(Self.bypassedCatalog(tr("Queue") + " 2 min ago") != nil)
        }
    }

    /// The longer words of pseudo and German at both ends of the text scale:
    /// money is never cut, controls never overlap, text stays in its box.
    @Test(arguments: Scenario.allCases)
    func longerLanguagesKeepMoneyWholeAndNothingOverlaps(_ scenario: Scenario) async throws {
        let german = try TestCatalogs.catalog(.german)
        for (format, catalog) in [(Self.pseudo, nil), (RegionalFormat(language: .german, currencyDisplay: .symbol), german)] {
            try await Localization.with(format, catalog: catalog) {
                let d = try await scenario.make()
                for textScale in [1.0, 2.0] {
                    for display in Display.all {
                        let context = d.context(display, textScale: textScale)
                        let tree = d.layout(display, textScale: textScale)
                        let where_ = "\(scenario.rawValue) \(format.language) \(display) text \(textScale)"
                        ScreenLayoutTests().checkTouchTargets(tree, display: display, minimum: context.minimumTouchPixels, where_)
                        ScreenLayoutTests().checkText(tree, where_)
                        tree.forEach { node in
                            let text = [node.label, node.value].compactMap { $0 }.joined(separator: " | ")
                            let cut = node.isTruncated
                            if Self.identifiesMoney(text) {
                                #expect(!cut, "\(where_): \(node.identifier ?? "\(node.role)") is cut: \"\(text)\"")
                            }
                        }
                    }
                }
            }
        }
    }

    /// English's test (``ScreenLayoutTests/identifiesMoney(_:)``) and German
    /// amounts ("12,50 €"), read through the isolate marks data carries.
    static func identifiesMoney(_ text: String) -> Bool {
        let plain = String(String.UnicodeScalarView(text.unicodeScalars.filter { !Localization.isolateMarks.contains($0) }))
        return ScreenLayoutTests.identifiesMoney(plain) || plain.contains(/[0-9],[0-9]{2}\s?(€|[A-Z]{3})/)
    }
}

/// The real catalogs, compiled from po/ with Debian's msgfmt for the test.
enum TestCatalogs {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    nonisolated(unsafe) private static var compiled: [String: Catalog] = [:]
    private static let lock = NSLock()

    static func catalog(_ language: Language) throws -> Catalog {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[language.code] { return known }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-po-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = directory + "/teller.mo"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        process.arguments = ["--check", "-o", output, "\(repository)/po/\(language.code).po"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "msgfmt refused po/\(language.code).po")
        let catalog = try Catalog(path: output)
        compiled[language.code] = catalog
        return catalog
    }
}
