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
/// The switches are scoped to this test's task (`Localization.with`), the
/// way `Localization.use` switches the whole terminal: the runtime reads
/// the same language and revision either way, and the tests running beside
/// this one keep theirs. Frames and touches are driven by hand on the main
/// actor.
@MainActor
@Suite struct MirroringRuntimeTests {
    @Test func aLanguageSwitchBetweenFramesLaysOutMirroredAndRedrawsTheWholeScreen() async throws {
        let d = try await Scenario.amount.make()
        let (runtime, display) = d.runtime(on: .small)
        let surface = Surface(size: display.size)
        let english = RegionalFormat.standard, arabic = RegionalFormat(language: .arabic)

        let ltrBack = try Localization.with(english) {
            _ = runtime.renderFrame(into: surface, stale: .zero)
            #expect(runtime.renderFrame(into: surface, stale: .zero) == .zero, "an unchanged screen draws nothing")
            #expect(runtime.layout.direction == .leftToRight)
            return try #require(runtime.tree?.node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
        }
        let layouts = runtime.layoutCount

        try Localization.with(arabic) {
            let changed = runtime.renderFrame(into: surface, stale: .zero)
            #expect(runtime.layoutCount == layouts + 1, "the switch did not lay the screen out again")
            #expect(changed == surface.bounds, "a language switch redraws the whole screen, not \(changed)")
            #expect(runtime.layout.direction == .rightToLeft)
            let back = try #require(runtime.tree?.node(withIdentifier: AmountEntryScreen.Control.back.rawValue)).frame
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
        }

        Localization.with(english) {
            let restored = runtime.renderFrame(into: surface, stale: .zero)
            #expect(runtime.layout.direction == .leftToRight)
            #expect(restored == surface.bounds, "switching back redraws the whole screen too")
        }
    }
}
