import Device
import Graphics
import TellerCore
import TellerFeatures
import TellerRuntime
import Widgets

/// The glyph cache over a whole session at 1280x800 of the terminal as
/// `teller run` builds it (``BenchTerminal``, online to the reference
/// host), from the cold cache of a new terminal: it is driven by touches
/// through the real main loop to every screen (sign-in, home, find account,
/// account, amount, review, receipt, queue, locked, diagnostics and back to
/// sign-in), as `teller-bench input` drives it. Targets are found in the
/// tree of the frame on the panel, so every look-up counted is the
/// terminal's own (its frames and the hit test of each touch). `render`'s
/// single-screen rate is a steady state; this is the one that says how a
/// session meets the cache.
let glyphBenchmark = Benchmark(
    name: "glyphs", summary: "glyph cache over a session through every screen at 1280x800, from cold",
    usage: """
        Figures:
          glyph_cache_scenario_hit_rate, _lookups, _hits, _misses     the terminal's look-ups over the session
          glyph_cache_scenario_frames, glyph_lookups_per_frame       frames presented, look-ups per frame
          glyph_cache_scenario_glyphs, _fonts, _bytes, _mask_bytes, _kerning_bytes
                                                                     what the (unbounded) cache holds at the end
          glyph_cache_first_misses_<screen>                           misses while the screen was first on top
          glyph_lookups_layout_<screen> / _draw_<screen>             look-ups of one layout and one full draw of it
          frame_cold_glyphs_<screen>_median_ms / frame_warm_glyphs_<screen>_median_ms
                                                                     layout and full draw of the screen with a new
                                                                     font library (every glyph a miss) and a warm one
        options:
          --iterations N   timed frames per screen, cold and warm (default 20)
        """
) { args in
    let iterations = args.firstIndex(of: "--iterations").flatMap { Int(args[$0 + 1]) } ?? 20
    try await GlyphBench(iterations: iterations).run()
}

@MainActor
private final class GlyphBench {
    /// Set once the terminal runs.
    var terminal: BenchTerminal!
    var fonts: FontLibrary { terminal.app.runtime.renderer.fonts }
    var runtime: TerminalRuntime { terminal.app.runtime }
    var display: OffscreenDisplay { terminal.display }
    let iterations: Int
    /// Look-ups the benchmark itself made (the per-screen layout and draw counts); their hits are left out of the session's.
    var own = GlyphCacheStatistics()
    var missesCounted = 0
    var screens: [(name: String, misses: Int)] = []
    var current: String?

    init(iterations: Int) {
        self.iterations = iterations
    }

    func run() async throws {
        terminal = try await BenchTerminal()
        let touch = terminal.touch
        await terminal.quiet()
        try arrived()

        try await tap(["1", "0", "0", "1", "enter", "1", "2", "3", "4", "enter"].map { "sign-in.pin.\($0)" }, with: touch)
        try await terminal.waitToLeave("sign-in")
        try arrived()
        try expect("home")
        try await tap(["home.find-account"], with: touch)
        try await tap(BenchTerminal.account.electronic.map { "find-account.keys.\($0)" } + ["find-account.open"], with: touch)
        try await terminal.waitToLeave("find-account")
        try arrived()
        try expect("account")
        try await tap(["account.deposit", "amount.keys.2", "amount.keys.5", "amount.keys.00", "amount.review"], with: touch)
        try expect("review")
        try await tap(["review.confirm"], with: touch)
        try await terminal.waitToLeave("review")
        try arrived()
        try expect("receipt")
        try await tap(["receipt.done", "home.queue"], with: touch)
        try expect("queue")
        try await tap(["queue.back", "home.lock"], with: touch)
        try expect("locked")
        try await tap(["1", "2", "3", "4"].map { "locked.pin.\($0)" } + ["locked.unlock"], with: touch)
        try expect("home")
        try await tap(["home.diagnostics"] + BenchTerminal.technicianPIN.map { "diagnostics.pin.\($0)" } + ["diagnostics.open"], with: touch)
        try expect("diagnostics")
        _ = try visibleFrame("diagnostics.report")
        try await tap(["diagnostics.back", "home.sign-out"], with: touch)
        try expect("sign-in")

        let all = fonts.glyphCacheStatistics
        // The benchmark's own misses stay: it only met first a glyph the panel had drawn or would draw.
        let session = GlyphCacheStatistics(hits: all.hits - own.hits, misses: all.misses)
        let size = fonts.glyphCacheSize
        let frames = runtime.loop.framesPresented
        print("glyph_cache_scenario_hit_rate: \(session.hitRate.fixed(decimals: 4))")
        print("glyph_cache_scenario_lookups: \(session.hits + session.misses)")
        print("glyph_cache_scenario_hits: \(session.hits)")
        print("glyph_cache_scenario_misses: \(session.misses)")
        print("glyph_cache_scenario_frames: \(frames)")
        print("glyph_lookups_per_frame: \((session.hits + session.misses) / max(1, frames))")
        print("glyph_cache_scenario_glyphs: \(size.glyphs)")
        print("glyph_cache_scenario_fonts: \(size.fonts)")
        print("glyph_cache_scenario_bytes: \(size.bytes)")
        print("glyph_cache_scenario_mask_bytes: \(size.maskBytes)")
        print("glyph_cache_scenario_kerning_bytes: \(size.kerningBytes)")
        print("glyph_cache_scenario_composite_bytes: \(size.compositeBytes)")
        for screen in screens { print("glyph_cache_first_misses_\(key(screen.name)): \(screen.misses)") }
    }

    /// Taps each identifier in turn, in the tree of the frame on the panel.
    private func tap(_ identifiers: [String], with touch: TouchInjector) async throws {
        for identifier in identifiers {
            let frame = try visibleFrame(identifier)
            var presented = runtime.loop.framesPresented
            _ = try touch.down(frame.center)
            try await nextFrame(after: presented, identifier)
            presented = runtime.loop.framesPresented
            try touch.up()
            try await nextFrame(after: presented, identifier)
            await quiet()
            try arrived()
        }
    }

    private func visibleFrame(_ identifier: String) throws -> Rect { try terminal.visibleFrame(identifier) }

    private func expect(_ screen: String) throws { try terminal.expect(screen) }

    /// Counts the misses since the last call against the screen on top; the
    /// first time a screen is on top, also counts one layout's and one full
    /// draw's look-ups and times its frame with a cold and a warm cache.
    private func arrived() throws {
        let name = terminal.coordinator.current.screenName
        let misses = fonts.glyphCacheStatistics.misses
        if let last = screens.indices.last, screens[last].name == name, current == name {
            screens[last].misses += misses - missesCounted
        } else if !screens.contains(where: { $0.name == name }) {
            screens.append((name, misses - missesCounted))
            measureScreen(name)
        }
        missesCounted = misses
        current = name
    }

    private func measureScreen(_ name: String) {
        // A layout of its own: the runtime's would hand back the tree on the panel.
        let layout = runtime.layout
        let before = fonts.glyphCacheStatistics
        let tree = layout.layout(runtime.view.body(), in: display.size)
        let laidOut = fonts.glyphCacheStatistics
        runtime.renderer.render(tree, into: Surface(size: display.size))
        let drawn = fonts.glyphCacheStatistics
        own = own + GlyphCacheStatistics(hits: drawn.hits - before.hits, misses: drawn.misses - before.misses)
        print("glyph_lookups_layout_\(key(name)): \(laidOut.hits + laidOut.misses - before.hits - before.misses)")
        print("glyph_lookups_draw_\(key(name)): \(drawn.hits + drawn.misses - laidOut.hits - laidOut.misses)")

        // Cold: a new library per frame, as after a restart; warm: one library kept. Both measure
        // their rows afresh, so the difference is the glyph cache's alone.
        let widget = runtime.view.body()
        let clock = ContinuousClock()
        let surface = Surface(size: display.size)
        func frame(_ library: FontLibrary) -> Double {
            var context = runtime.layout
            context.fonts = library
            context.rowHeights = RowHeightCache()
            let renderer = Renderer(fonts: library)
            return clock.measure { renderer.render(context.layout(widget, in: display.size), into: surface) }.milliseconds
        }
        guard let warm = try? FontLibrary() else { return }
        _ = frame(warm)
        let cold = (0..<iterations).compactMap { _ in (try? FontLibrary()).map { frame($0) } }
        let warmed = (0..<iterations).map { _ in frame(warm) }
        print("frame_cold_glyphs_\(key(name))_median_ms: \(median(cold).fixed(decimals: 3))")
        print("frame_warm_glyphs_\(key(name))_median_ms: \(median(warmed).fixed(decimals: 3))")
    }

    private func nextFrame(after presented: Int, _ identifier: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while runtime.loop.framesPresented == presented {
            guard clock.now < deadline else { throw BenchmarkError.failed("no frame after touching \(identifier)") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    private func quiet() async { await terminal.quiet() }

    private func key(_ screen: String) -> String { String(screen.map { $0 == "-" ? "_" : $0 }) }

    private func median(_ samples: [Double]) -> Double { samples.isEmpty ? 0 : samples.sorted()[samples.count / 2] }
}
