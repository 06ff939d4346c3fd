import FoundationEssentials
import Graphics
import TellerCore
import Widgets

/// Renders the account screen (status bar, header, 10 activity rows, amount
/// keypad) at three panel sizes: full redraws (render alone, and layout plus
/// render as a frame costs when the screen changes), one key pressed and
/// released as the terminal does it (finding the damage included: the
/// layout is kept and the key's paints swapped), and a memset of the frame as the
/// memory-bandwidth floor of the same run. At 1280x800 the frame with layout
/// is also timed in Arabic, right to left, from the compiled catalog in
/// TELLER_LOCALE_DIR or the repository's .build/locale (tools/catalogs).
/// Options: `--iterations N` (default 300), `--png DIR` to save the timed frames,
/// `--only full|layout|frame` to run one loop at 1280x800 under a profiler (see ``profiledLoop``).
let renderBenchmark = Benchmark(name: "render", summary: "software renderer: full frame, pressed key, memset floor") { args in
    let iterations = args.firstIndex(of: "--iterations").flatMap { Int(args[$0 + 1]) } ?? 300
    if let loop = args.firstIndex(of: "--only").map({ args[$0 + 1] }) { return try profiledLoop(loop, iterations: iterations) }
    // What the ratios depend on besides the code: the CPU and its vector extension, the load.
    print(MachineConditions.describe())
    // Saving the frames lets a person check that what was timed is the real screen.
    let pngDirectory = args.firstIndex(of: "--png").map { args[$0 + 1] }
    let fonts = try FontLibrary()
    let renderer = Renderer(fonts: fonts)
    let panels: [(Size, Double)] = [
        (Size(width: 800, height: 480), 1), (Size(width: 1280, height: 800), 1.5), (Size(width: 1920, height: 1080), 2),
    ]
    var steadyState = GlyphCacheStatistics()
    let arabic = ArabicCatalog.load()
    for (size, scale) in panels {
        let name = "\(size.width)x\(size.height)"
        var context = LayoutContext(scale: Scale(scale), fonts: fonts, state: InteractionState(focused: "deposit.amount"))
        let surface = Surface(size: size)
        let idle = context.layout(RenderBenchmarkScreen.account(), in: size)
        context.state.pressed = "deposit.keypad.5"
        let pressed = context.layout(RenderBenchmarkScreen.account(), in: size)

        // Warm-up fills the glyph cache; what follows is the steady state the goal is about.
        for _ in 0..<10 { renderer.render(idle, into: surface) }
        fonts.resetGlyphCacheStatistics()

        let full = measure(iterations) { renderer.render(idle, into: surface) }
        // A press as the terminal draws it: the laid-out tree is kept, the key's paints are
        // swapped in place and its frame is the damage. Pressed and released alternate.
        var tree = idle
        var pressable = PressableNodes(idle, pressed: nil)
        var key: String? = "deposit.keypad.5"
        let press = measure(iterations * 4) {
            let damage = pressable.press(key, in: &tree)
            renderer.render(tree, into: surface, damage: damage)
            key = key == nil ? "deposit.keypad.5" : nil
        }
        guard tree == idle, pressable.press("deposit.keypad.5", in: &tree).count == 1, tree == pressed else {
            throw BenchmarkError.failed("the press timed at \(name) is not the layout's press")
        }
        // A changed label (the amount typed): the new tree compared with the old one, and the damage drawn.
        let typed = context.layout(RenderBenchmarkScreen.account(amount: "2,500.00"), in: size)
        var labelTrees = (idle, typed)
        let labelDamage = measure(iterations * 4) { _ = DamageTracker.damage(from: labelTrees.0, to: labelTrees.1) }
        let label = measure(iterations * 4) {
            renderer.render(labelTrees.1, into: surface, damage: DamageTracker.damage(from: labelTrees.0, to: labelTrees.1))
            labelTrees = (labelTrees.1, labelTrees.0)
        }
        steadyState = steadyState + fonts.glyphCacheStatistics
        if let pngDirectory { try PNG.write(surface, to: "\(pngDirectory)/render-\(name).png") }
        let memset = measure(iterations) {
            for y in 0..<size.height { surface.row(y).update(repeating: 0xFF00_0000, count: size.width) }
        }
        let layout = measure(max(10, iterations / 10)) { _ = context.layout(RenderBenchmarkScreen.account(), in: size) }
        let frame = measure(iterations) { renderer.render(context.layout(RenderBenchmarkScreen.account(), in: size), into: surface) }

        print("render_full_\(name)_median_ms: \(format(percentile(full, 0.5)))")
        print("render_full_\(name)_p99_ms: \(format(percentile(full, 0.99)))")
        print("frame_full_with_layout_\(name)_median_ms: \(format(percentile(frame, 0.5)))")
        if size == Size(width: 1280, height: 800) {
            switch arabic {
            case .success(let catalog):
                // The same screen, layout and loop, worded by the Arabic catalog and ordered right to left.
                Localization.use(RegionalFormat(language: .arabic), catalog: catalog)
                // Mirrored as the terminal lays Arabic out; the fonts follow the context's direction.
                var mirrored = context
                mirrored.direction = .rightToLeft
                let screen = { RenderBenchmarkScreen.account(text: .catalog()) }
                for _ in 0..<10 { renderer.render(mirrored.layout(screen(), in: size), into: surface) }
                let arabicFrame = measure(iterations) { renderer.render(mirrored.layout(screen(), in: size), into: surface) }
                if let pngDirectory { try PNG.write(surface, to: "\(pngDirectory)/render-arabic-\(name).png") }
                fonts.paragraphDirection = .leftToRight
                Localization.use(.standard)
                print("frame_full_arabic_\(name)_median_ms: \(format(percentile(arabicFrame, 0.5)))")
            case .failure(let problem):
                print("frame_full_arabic_\(name)_median_ms: unavailable (\(problem.reason))")
            }
        }
        print("render_press_\(name)_median_ms: \(format(percentile(press, 0.5)))")
        print("damage_label_\(name)_median_ms: \(format(percentile(labelDamage, 0.5)))")
        print("render_label_\(name)_median_ms: \(format(percentile(label, 0.5)))")
        print("memset_\(name)_ms: \(format(percentile(memset, 0.5)))")
        // In memsets of the same run: a busy machine slows both sides, so these move less than the times.
        print("render_full_\(name)_per_memset: \(ratio(full, memset))")
        print("frame_full_with_layout_\(name)_per_memset: \(ratio(frame, memset))")
        print("layout_\(name)_median_ms: \(format(percentile(layout, 0.5)))")
    }
    // One screen redrawn after a warm-up: near 1 by construction. `teller-bench glyphs` measures a session.
    print("glyph_cache_steady_single_screen_hit_rate: \(steadyState.hitRate.fixed(decimals: 4))")
}

/// One loop of the benchmark alone at 1280x800, after the same warm-up: what
/// `perf record` and `valgrind --tool=callgrind` should see. Instructions per
/// frame are the difference between two runs of different `iterations`
/// divided by the difference, which a noisy machine does not move.
/// - `full`: the kept tree drawn whole (`render_full`).
/// - `layout`: the screen laid out (`layout`).
/// - `frame`: both, as `frame_full_with_layout` times them.
private func profiledLoop(_ loop: String, iterations: Int) throws {
    let size = Size(width: 1280, height: 800)
    let fonts = try FontLibrary()
    let renderer = Renderer(fonts: fonts)
    let context = LayoutContext(scale: Scale(1.5), fonts: fonts, state: InteractionState(focused: "deposit.amount"))
    let surface = Surface(size: size)
    let idle = context.layout(RenderBenchmarkScreen.account(), in: size)
    for _ in 0..<10 { renderer.render(context.layout(RenderBenchmarkScreen.account(), in: size), into: surface) }
    let body: () -> Void
    switch loop {
    case "full": body = { renderer.render(idle, into: surface) }
    case "layout": body = { _ = context.layout(RenderBenchmarkScreen.account(), in: size) }
    case "frame": body = { renderer.render(context.layout(RenderBenchmarkScreen.account(), in: size), into: surface) }
    default: throw BenchmarkError.failed("--only takes full, layout or frame, not \(loop)")
    }
    print("\(loop)_1280x800_median_ms: \(format(percentile(measure(iterations, body), 0.5)))")
}

/// Milliseconds of each of `count` runs of `body`.
private func measure(_ count: Int, _ body: () -> Void) -> [Double] {
    let clock = ContinuousClock()
    return (0..<count).map { _ in clock.measure(body).milliseconds }
}

private func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

private func format(_ ms: Double) -> String { ms.fixed(decimals: 3) }

/// The median of `samples` over the median of `floor`.
private func ratio(_ samples: [Double], _ floor: [Double]) -> String {
    (percentile(samples, 0.5) / percentile(floor, 0.5)).fixed(decimals: 2)
}

/// The Arabic catalog the Arabic frame is worded from, or why there is none.
private struct ArabicCatalog: Error {
    let reason: String

    static func load() -> Result<Catalog, ArabicCatalog> {
        let directory = ProcessInfo.processInfo.environment["TELLER_LOCALE_DIR"] ?? repositoryRoot + "/.build/locale"
        let path = Catalog.path(for: .arabic, in: directory)
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(ArabicCatalog(reason: "no catalog at \(path); run tools/catalogs"))
        }
        do { return .success(try Catalog(path: path)) } catch { return .failure(ArabicCatalog(reason: "\(error)")) }
    }

    /// The repository this file was built from: Sources/teller-bench/RenderBenchmark.swift, three levels up.
    private static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}
