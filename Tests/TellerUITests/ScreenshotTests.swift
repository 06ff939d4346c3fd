import Foundation
import Graphics
import TellerCore
import TellerUI
import Testing
import Widgets
import ProcessTestSupport

/// Renders every screen (both themes, and at the largest operator text) and
/// every state worth a look (standard theme) at 800x480, driven by the
/// fakes, and compares each with its committed picture; with
/// TELLER_WRITE_SCREENS=1 it first writes docs/screens/<name>-<theme>.png
/// (and <name>-text-2.png):
///
///     TELLER_WRITE_SCREENS=1 swift test --filter ScreenshotTests
@MainActor
@Suite(.tags(.slow)) struct ScreenshotTests {
    static var writes: Bool { ProcessInfo.processInfo.environment["TELLER_WRITE_SCREENS"] == "1" }

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/screens")
    }

    /// One picture: a scenario in a theme at a text scale.
    struct Shot: Sendable {
        var scenario: Scenario
        var theme: Theme
        var textScale = 1.0
        var language = Language.english

        var fileName: String {
            if language != .english {
                return textScale == 1 ? "\(scenario.rawValue)-\(language.code).png" : "\(scenario.rawValue)-\(language.code)-text-\(Int(textScale)).png"
            }
            return textScale == 1 ? "\(scenario.rawValue)-\(theme.name).png" : "\(scenario.rawValue)-text-\(Int(textScale)).png"
        }

        var caption: String {
            scenario.caption + (theme.name == "high-contrast" ? " (high contrast)" : "")
                + (textScale == 1 ? "" : " (text scale \(Int(textScale)).0)")
                + (language == .english ? "" : " in \(language == .german ? "German" : "Arabic")")
        }

        /// The language's format as a bank there would configure it, and its catalog.
        func regionalFormat() throws -> (RegionalFormat, Catalog?) {
            switch language {
            case .english: (.standard, nil)
            case .arabic: (RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native), try TestCatalogs.catalog(.arabic))
            default: (RegionalFormat(language: language, currencyDisplay: .symbol), try TestCatalogs.catalog(language))
            }
        }
    }

    /// Every picture: each screen in both themes and at text scale 2.0, then the states in the standard theme.
    /// (In parts: Swift 6.0.3, the arm64 build, gives up type-checking one long sum.)
    nonisolated static let shots: [Shot] = bothThemes + states + largeText + languages + tightest

    nonisolated static let bothThemes: [Shot] =
        Scenario.screens.flatMap { s in [Shot(scenario: s, theme: .standard), Shot(scenario: s, theme: .highContrast)] }
    nonisolated static let states: [Shot] =
        Scenario.allCases.filter { !Scenario.screens.contains($0) }.map { Shot(scenario: $0, theme: .standard) }
    nonisolated static let largeText: [Shot] = Scenario.screens.map { Shot(scenario: $0, theme: .standard, textScale: 2) }
    nonisolated static let languages: [Shot] =
        [Language.german, .arabic].flatMap { language in Scenario.screens.map { Shot(scenario: $0, theme: .standard, language: language) } }
    /// The void at its tightest: every reason and Keep it must show whole
    /// (issue 41); German at text scale 2.0 on the till and approval (the
    /// title under Back and the action, where it has a line to itself) and
    /// on the review (Confirm under the details, whole); the void refused
    /// while still connecting, its message above Void, in German at 2.0 and
    /// in Arabic.
    nonisolated static let tightest: [Shot] = [
        Shot(scenario: .receiptVoid, theme: .standard, textScale: 2), Shot(scenario: .receiptVoid, theme: .standard, language: .german),
        Shot(scenario: .receiptVoid, theme: .standard, language: .arabic),
        Shot(scenario: .receiptVoid, theme: .standard, textScale: 2, language: .german),
        Shot(scenario: .receiptVoid, theme: .standard, textScale: 2, language: .arabic),
        Shot(scenario: .tillShort, theme: .standard, textScale: 2, language: .german),
        Shot(scenario: .approval, theme: .standard, textScale: 2, language: .german),
        Shot(scenario: .review, theme: .standard, textScale: 2, language: .german),
        Shot(scenario: .receiptVoidConnecting, theme: .standard, textScale: 2, language: .german),
        Shot(scenario: .receiptVoidConnecting, theme: .standard, language: .arabic),
    ]

    @Test(arguments: shots.indices)
    func rendersScreenshot(_ index: Int) async throws {
        let shot = Self.shots[index]
        let scenario = shot.scenario
        let (format, catalog) = try shot.regionalFormat()
        let (tree, surface) = try await Localization.with(format, catalog: catalog) {
            let d = try await scenario.make()
            return d.render(.small, theme: shot.theme, textScale: shot.textScale)
        }
        #expect(tree.identifier == scenario.screenName)
        // The PNG round-trips: what QA gets from `teller ctl screenshot` is the frame.
        let png = try PNG.encode(surface)
        let decoded = try PNG.decode(png)
        #expect(decoded.size == surface.size)
        #expect(decoded.pixels[240 * 800 + 400] & 0xFF_FFFF == surface.row(240)[400] & 0xFF_FFFF)
        let path = Self.directory.appendingPathComponent(shot.fileName).path
        if Self.writes {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try PNG.write(surface, to: path)
        }
        // The fakes' clock is fixed, so the picture is too: a screen that
        // changes by a pixel tile fails until its picture is looked at and
        // written again.
        do {
            try ImageDifference().compare(surface, goldenAt: path)
        } catch {
            Issue.record("\(shot.fileName): \(error); look at it, then TELLER_WRITE_SCREENS=1 swift test --filter ScreenshotTests")
        }
    }

    /// docs/screens/README.md lists exactly the pictures this suite writes.
    @Test func indexListsEveryScreenshot() throws {
        let index = Self.directory.appendingPathComponent("README.md")
        if Self.writes {
            var text = """
                # Screens

                Every Teller screen at 800x480 (a 7-inch panel at scale 1), rendered from the fakes by
                `Tests/TellerUITests/ScreenshotTests.swift`. Regenerate them all with

                    TELLER_WRITE_SCREENS=1 swift test --filter ScreenshotTests

                and look at every picture before committing. Each screen is shown in the standard and the
                high-contrast theme; the states after it in the standard theme; last, each screen at text
                scale 2.0, the largest an operator can choose; then each screen in German and in Arabic
                (`language = de | ar`, amounts with the currency symbol, Arabic with Arabic-Indic digits),
                laid out right to left. The suite compares every
                rendering with its picture here, so a screen that changes fails until it is written again.

                | picture | what it shows |
                |---|---|

                """
            for shot in Self.shots {
                text += "| [\(shot.fileName)](\(shot.fileName)) | \(shot.caption) |\n"
            }
            try text.write(to: index, atomically: true, encoding: .utf8)
        }
        guard let text = try? String(contentsOf: index, encoding: .utf8) else {
            Issue.record("docs/screens/README.md is missing; run TELLER_WRITE_SCREENS=1 swift test --filter ScreenshotTests")
            return
        }
        for shot in Self.shots {
            #expect(text.contains(shot.fileName))
        }
    }
}
