import Foundation
import Graphics
import Testing
import Widgets

/// Renders the composed teller screens and compares them with PNGs under Goldens/.
///
/// After an intended visual change, refresh every golden with
/// `TELLER_UPDATE_GOLDENS=1 swift test --filter WidgetsTests` and look at
/// the changed PNGs before committing them (see docs/rendering.md).
@Suite struct GoldenTests {
    /// Panels the terminal ships on: a 7-inch 800x480 at scale 1 and a 7-inch 1280x800 at 1.5.
    static let displays: [(size: Size, scale: Double)] = [
        (Size(width: 800, height: 480), 1), (Size(width: 1280, height: 800), 1.5),
    ]
    static let themes: [Theme] = [.standard, .highContrast]

    static let names: [String] = TellerScreens.all.flatMap { screen in
        displays.flatMap { display in
            themes.map { "\(screen.name)-\(display.size.width)x\(display.size.height)-\($0.name)" }
        }
        // The largest operator text size on the smallest panel is where layouts break first.
        + ["\(screen.name)-800x480-standard-text2"]
    }

    @Test(arguments: names)
    func screenMatchesGolden(name: String) throws {
        let screen = TellerScreens.all.first { name.hasPrefix($0.name + "-") }!
        let display = Self.displays.first { name.contains("-\($0.size.width)x\($0.size.height)-") }!
        let textScale = name.hasSuffix("-text2") ? 2.0 : 1.0
        let theme = Self.themes.first { name.contains("-" + $0.name) }!
        let context = makeContext(scale: display.scale, textScale: textScale, theme: theme, state: screen.state)
        let surface = Surface(size: display.size)
        Renderer(fonts: context.fonts).render(context.layout(screen.widget, in: display.size), into: surface)

        let path = Self.goldenDirectory + "/\(name).png"
        if ProcessInfo.processInfo.environment["TELLER_UPDATE_GOLDENS"] == "1" {
            try PNG.write(surface, to: path)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing golden \(path); run TELLER_UPDATE_GOLDENS=1 swift test --filter WidgetsTests")
            return
        }
        // Tile by tile: anti-aliasing may move a few pixels, one wrong digit may not.
        do {
            try ImageDifference().compare(surface, goldenAt: path)
        } catch {
            let actual = NSTemporaryDirectory() + "\(name)-actual.png"
            try PNG.write(surface, to: actual)
            Issue.record("\(name): \(error); actual at \(actual)")
        }
    }

    /// The comparison must see one changed digit of an amount: the old
    /// whole-screen tolerance (0.1 % of the pixels) let it pass.
    @Test func oneChangedDigitOfAnAmountFailsTheComparison() throws {
        let display = Size(width: 800, height: 480)
        func render(_ amount: String) -> Surface {
            let context = makeContext(scale: 1, textScale: 1, theme: .standard, state: InteractionState())
            let surface = Surface(size: display)
            Renderer(fonts: context.fonts).render(context.layout(Label(amount, style: .body, identifier: "amount"), in: display), into: surface)
            return surface
        }
        let golden = render("12,480.25 EUR")
        let goldenImage = Image(size: display, pixels: (0..<display.height).flatMap { y in (0..<display.width).map { golden[$0, y] } })
        #expect(ImageDifference().differingTiles(render("12,480.25 EUR"), goldenImage).isEmpty, "the same amount matches")
        let changed = render("12,480.26 EUR")
        #expect(!ImageDifference().differingTiles(changed, goldenImage).isEmpty, "one digit changed must fail")
        // The old rule, as one whole-screen tile allowed 0.1 % of its pixels.
        var wholeScreen = ImageDifference()
        wholeScreen.tileSize = max(display.width, display.height)
        wholeScreen.pixelsPerTile = display.width * display.height / 1000
        #expect(wholeScreen.differingTiles(changed, goldenImage).isEmpty, "and the old 0.1 % tolerance would have let it pass")
    }

    static var goldenDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens").path
    }
}
