import Device
import Graphics
import TellerCore
@testable import TellerRuntime
import TellerUI
import Testing
import Widgets

/// The runtime follows the terminal's language: a switch to Arabic between
/// two frames lays the screen out again, mirrored, and redraws all of it;
/// touches then land on the mirrored controls.
///
/// The language is the process's, so the test switches it and back with
/// no suspension in between: frames and touches are driven by hand on the
/// main actor, and no other main-actor test runs while it is Arabic. It
/// leaves the language as it found it.
@MainActor
@Suite struct MirroringRuntimeTests {
    @Test func aLanguageSwitchBetweenFramesLaysOutMirroredAndRedrawsTheWholeScreen() async throws {
        let d = try await Scenario.amount.make()
        let display = OffscreenDisplay(physicalSize: Display.small.size, bufferCount: 2)
        let runtime = TerminalRuntime(display: display, fonts: d.fonts,
                                      monitor: InputMonitor(configuration: .init(transform: display.transform)),
                                      coordinator: d.coordinator, scale: Scale(Display.small.scale))
        // Another test may have left a language behind (EveryControlTests taps every language button);
        // this one starts in English and leaves what it found.
        let found = Localization.format
        Localization.use(.standard)
        defer { Localization.use(found) }
        let surface = Surface(size: display.size)
        _ = runtime.renderFrame(into: surface, stale: .zero)
        #expect(runtime.renderFrame(into: surface, stale: .zero) == .zero, "an unchanged screen draws nothing")
        let layouts = runtime.layoutCount
        let ltrBack = try #require(runtime.tree?.node(withIdentifier: AmountEntryScreen.back)).frame

        Localization.use(RegionalFormat(language: .arabic))
        let changed = runtime.renderFrame(into: surface, stale: .zero)
        #expect(runtime.layoutCount == layouts + 1, "the switch did not lay the screen out again")
        #expect(changed == surface.bounds, "a language switch redraws the whole screen, not \(changed)")
        #expect(runtime.layout.direction == .rightToLeft)
        let back = try #require(runtime.tree?.node(withIdentifier: AmountEntryScreen.back)).frame
        #expect(back == Rect(x: surface.bounds.maxX - ltrBack.maxX, y: ltrBack.minY, width: ltrBack.width, height: ltrBack.height),
                "Back \(back) is not mirrored from \(ltrBack)")
        // What is on the panel is what a full rendering of the mirrored screen shows.
        let whole = Surface(size: display.size)
        runtime.renderer.render(runtime.layout.layout(runtime.view.body(), in: display.size), into: whole)
        var differing = 0
        for y in 0..<whole.height {
            for x in 0..<whole.width where whole[x, y] != surface[x, y] { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ from a full rendering of the mirrored screen")

        // A finger where Back is drawn now goes back.
        runtime.handle(.touch(TouchEvent(.began, contact: 0, at: back.center), path: "test"))
        runtime.handle(.touch(TouchEvent(.ended, contact: 0, at: back.center), path: "test"))
        #expect(d.coordinator.current.screenName == "account")

        Localization.use(.standard)
        let restored = runtime.renderFrame(into: surface, stale: .zero)
        #expect(runtime.layout.direction == .leftToRight)
        #expect(restored == surface.bounds, "switching back redraws the whole screen too")
    }
}
