import TellerTerminal
import TellerQA
import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import Graphics
import Widgets

/// The terminal in this process on the offscreen display, driven through
/// the same ``ControlHandler`` as `teller ctl`: taps and keys become
/// kernel-format events in the input monitor's decoders.
@MainActor
final class InProcessTarget: ScenarioTarget {
    private(set) var app: TerminalApp
    /// Terminals stopped by `power-cut`, kept alive because their loop's timers still hold them.
    private var stopped: [TerminalApp] = []
    let outputDirectory: String
    let goldenDirectory: String?
    let updateGoldens: Bool
    var comparison = GoldenComparison()
    /// Misses counted against the screen on top; the rest is read from the terminals at the end.
    private var glyphs = GlyphCacheReport()
    private var missesCounted = 0

    init(app: TerminalApp, outputDirectory: String, goldenDirectory: String?, updateGoldens: Bool) {
        self.app = app
        self.outputDirectory = outputDirectory
        self.goldenDirectory = goldenDirectory
        self.updateGoldens = updateGoldens
    }

    func perform(_ command: ControlCommand) async throws {
        _ = try await app.handle(command)
        try await waitForFrame()
        countGlyphMisses()
    }

    /// Touches are hit-tested against the last frame drawn, as on a real
    /// panel; a person never taps before the new screen shows, so neither
    /// does the runner.
    private func waitForFrame() async throws {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            await app.coordinator.settle()
            if app.tree?.accessibilityNode == app.layoutCurrentScreen().accessibilityNode { return }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    func accessibilityTree() async throws -> AccessibilityNode {
        await app.coordinator.settle()
        defer { countGlyphMisses() }
        return app.accessibilityTree()
    }

    func screenshot(_ name: String) async throws -> String {
        await app.coordinator.settle()
        defer { countGlyphMisses() }
        let surface = app.snapshot()
        let path = Path.join(outputDirectory, "\(name).png")
        try PNG.write(surface, to: path)
        guard let goldenDirectory else { return "screenshot \(name): \(path)" }
        let golden = Path.join(goldenDirectory, "\(name).png")
        if updateGoldens {
            try PNG.write(surface, to: golden)
            return "screenshot \(name): golden \(golden) written"
        }
        guard FileManager.default.fileExists(atPath: golden) else { return "screenshot \(name): \(path) (no golden \(golden))" }
        // What changes from run to run is left out; every amount, name and word must match.
        return try comparison.compare(surface, golden: golden, name: name, ignoring: GoldenComparison.volatileFrames(in: app.layoutCurrentScreen()))
    }

    /// There is no power to cut in a process: the terminal is stopped
    /// without saving anything and built again on the same data directory,
    /// like a restart after a crash. Only the virtual device loses the page cache.
    func powerCut(file: String, line: Int) async throws -> String {
        app.control?.shutDown()
        app.coordinator.stop()
        if let engine = app.live.engine { await engine.stop() }
        stopped.append(app)
        let restarted = try TerminalApp(configuration: app.configuration, configurationPath: app.configurationPath)
        restarted.start()
        while !restarted.announcedReady { try await Task.sleep(for: .milliseconds(10)) }
        app = restarted
        countGlyphMisses()
        return "power-cut: in-process, the terminal restarted on the same data directory (the virtual device cuts the power)"
    }

    /// A process has no link of its own to cut: only the virtual device's host can.
    func setLink(up: Bool) async throws -> String {
        "link \(up ? "up" : "down"): skipped in-process (only the virtual device's host cuts a link)"
    }

    /// The glyph cache over the run so far, every terminal's from its cold start.
    var glyphCacheReport: GlyphCacheReport {
        var report = glyphs
        let terminals = stopped + [app]
        report.terminals = terminals.count
        for terminal in terminals {
            let fonts = terminal.runtime.renderer.fonts
            let all = fonts.glyphCacheStatistics
            report.lookups = report.lookups + GlyphCacheStatistics(hits: all.hits - terminal.qaGlyphLookups.hits, misses: all.misses)
            report.frames += terminal.loop.framesPresented
            report.size = report.size + fonts.glyphCacheSize
        }
        return report
    }

    private func countGlyphMisses() {
        let misses = (stopped + [app]).reduce(0) { $0 + $1.runtime.renderer.fonts.glyphCacheStatistics.misses }
        glyphs.count(misses: misses - missesCounted, on: app.coordinator.current.screenName)
        missesCounted = misses
    }
}
