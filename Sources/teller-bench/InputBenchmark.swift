import Device
import Graphics
import TellerCore
import TellerFakes
import TellerFeatures
import TellerRuntime
import SystemCalls
import TellerConfiguration
import Widgets

/// Input to presented frame on the terminal's own path at 1280x800, on the
/// fakes: kernel-format `input_event` records are written to a pipe that
/// the real main loop watches (epoll, through Dispatch), read and decoded by
/// the InputMonitor's touch decoder, hit-tested and handled by
/// TerminalRuntime, TerminalView, the screen's view model and the
/// coordinator, laid out, diffed, drawn where damaged and presented into the
/// other of two scanout buffers, as DRM double-buffers. The clock starts
/// before the first record of an event is written and stops in the loop's
/// frame-presented callback (not when the waiting task runs again after
/// it). Each tap is two samples, its press and its release.
let inputBenchmark = Benchmark(
    name: "input", summary: "kernel event written -> real main loop -> screens -> frame presented at 1280x800",
    usage: """
        Figures (ms, over every press and release):
          keypad_input_to_present_p50_ms / _p99_ms       digit and backspace taps on the amount keypad
          navigation_input_to_present_p50_ms / _p99_ms   Back to the account and Deposit to the amount screen
          input_to_present_p50_ms / _p99_ms              both together
          input_to_present_loaded_p50_ms / _p99_ms       both again, while the other core spins and commits to SQLite
          scroll_1000_rows_input_to_present_p50_ms / _p99_ms   each finger move dragging a 1,000-row queue
          input_frame_priority                           the loop thread's scheduling, as `teller run` sets it
        What the figures depend on besides the code, printed beside them:
          machine                                        the CPU, its cores and widest vector extension, the load average
          NAME_machine_busy_percent / _steal_percent     the whole machine's time while NAME was measured: busy,
                                                         and taken by the hypervisor (a VM's neighbours)
          NAME_loop_involuntary_switches                 how often the kernel gave the loop thread's core to another thread
          NAME_loop_page_faults                          the loop thread's page faults meanwhile (and how many read the disk)
        options:
          --taps N             taps of each kind and finger moves (default 200)
          --frame-priority N   the loop thread's real-time priority, 0 for ordinary scheduling
                               (default: teller.conf's default, \(Configuration.defaultFramePriority))
        """
) { args in
    let taps = args.firstIndex(of: "--taps").flatMap { Int(args[$0 + 1]) } ?? 200
    let priority = args.firstIndex(of: "--frame-priority").flatMap { Int32(args[$0 + 1]) } ?? Configuration.defaultFramePriority
    try await InputBench().run(taps: taps, framePriority: priority)
}

@MainActor
private final class InputBench {
    let harness = FeatureHarness()
    let display = OffscreenDisplay(physicalSize: Size(width: 1280, height: 800), bufferCount: 2)
    let runtime: TerminalRuntime
    /// Resumed with the time the loop reported the next frame presented.
    var presented: CheckedContinuation<ContinuousClock.Instant, Never>?

    init() throws {
        let monitor = InputMonitor(configuration: .init(transform: display.transform))
        runtime = TerminalRuntime(display: display, fonts: try FontLibrary(), monitor: monitor, coordinator: harness.coordinator,
                                  scale: Scale(1.5))
    }

    func run(taps: Int, framePriority priority: Int32) async throws {
        runtime.onFramePresented = { [unowned self] _ in
            // The clock stops here, in the loop's callback, not when the awaiting task next runs.
            let now = ContinuousClock.now
            let waiting = presented
            presented = nil
            waiting?.resume(returning: now)
        }
        print(MachineConditions.describe())
        framePriority(priority)
        runtime.start()
        await harness.coordinator.start()
        let device = try runtime.loop.attachPipeDevice(capabilities: TouchInjector.capabilities(name: "teller-bench touchscreen"),
                                                       to: runtime.monitor)
        let touch = TouchInjector(transform: display.transform, sink: device)
        await quiet()

        // To the amount screen by taps: the operator's ID and PIN, then the account by its IBAN.
        for id in ["1", "0", "0", "1", "enter", "1", "2", "3", "4", "enter"].map({ "sign-in.pin.\($0)" }) {
            _ = try await tap(id, with: touch)
        }
        await harness.accounts.set(cached: nil, fresh: harness.snapshot(asOf: harness.clock.now()), for: FeatureHarness.account)
        _ = try await tap("home.find-account", with: touch)
        for character in FeatureHarness.account.electronic { _ = try await tap("find-account.keys.\(character)", with: touch) }
        _ = try await tap("find-account.open", with: touch)
        _ = try await tap("account.deposit", with: touch)
        guard harness.coordinator.current.screenName == "amount" else {
            throw BenchmarkError.failed("the taps did not reach the amount screen; on \(harness.coordinator.current.screenName)")
        }

        var window = try MachineConditions.Window.open()
        let (keypad, navigation) = try await keypadAndNavigation(taps: taps, with: touch)
        report("keypad_input_to_present", keypad)
        report("navigation_input_to_present", navigation)
        report("input_to_present", keypad + navigation)
        print("input_to_present_samples: \(keypad.count + navigation.count)")
        try window.close(reporting: "input_to_present")

        // The same taps while the other core is busy, as a terminal's always is.
        let load = try BackgroundLoad()
        try load.start()
        window = try MachineConditions.Window.open()
        let loaded = try await keypadAndNavigation(taps: taps, with: touch)
        try window.close(reporting: "input_to_present_loaded")
        let commits = load.stop()
        report("input_to_present_loaded", loaded.keypad + loaded.navigation)
        print("input_to_present_loaded_load: one thread spinning, one committing to SQLite (\(commits) commits meanwhile)")

        // The queue after days offline: a finger drags 1,000 rows up and down.
        try await harness.fillQueue(rows: 1_000)
        for id in ["amount.back", "account.back", "find-account.back", "home.queue"] { _ = try await tap(id, with: touch) }
        guard harness.coordinator.current.screenName == "queue" else {
            throw BenchmarkError.failed("the taps did not reach the queue; on \(harness.coordinator.current.screenName)")
        }
        window = try MachineConditions.Window.open()
        report("scroll_1000_rows_input_to_present", try await drag("queue.list", moves: taps, with: touch))
        try window.close(reporting: "scroll_1000_rows_input_to_present")
    }

    /// Schedules this thread, the loop's, as `teller run` does its own (`frame_priority`), and says how it runs.
    private func framePriority(_ priority: Int32) {
        guard priority > 0 else { return print("input_frame_priority: ordinary scheduling") }
        do throws(SystemCallError) {
            try KernelThread.runCurrentInRealTime(priority: priority)
            print("input_frame_priority: SCHED_RR \(priority)")
        } catch {
            print("input_frame_priority: ordinary scheduling (\(error))")
        }
    }

    /// Digit and backspace taps on the amount keypad, then Back and Deposit
    /// between the account and amount screens; ms per press and release.
    private func keypadAndNavigation(taps: Int, with touch: TouchInjector) async throws -> (keypad: [Double], navigation: [Double]) {
        var keypad: [Double] = []
        for n in 0..<taps {
            keypad += try await tap("amount.keys.\(n % 9 + 1)", with: touch)
            keypad += try await tap("amount.keys.backspace", with: touch)
        }
        var navigation: [Double] = []
        for _ in 0..<taps {
            navigation += try await tap("amount.back", with: touch)
            navigation += try await tap("account.deposit", with: touch)
        }
        guard harness.coordinator.current.screenName == "amount" else {
            throw BenchmarkError.failed("navigation ended on \(harness.coordinator.current.screenName), not the amount screen")
        }
        return (keypad, navigation)
    }

    /// Puts a finger on the middle of `identifier` and moves it `moves` times,
    /// 12 pixels at a time, up past the slop and then back and forth over a
    /// screen's height; returns, in ms, each move's time from its first
    /// record written to its frame presented.
    private func drag(_ identifier: String, moves: Int, with touch: TouchInjector) async throws -> [Double] {
        guard let frame = runtime.layoutCurrentScreen().visibleFrame(ofIdentifier: identifier, within: display.bounds), !frame.isEmpty else {
            throw BenchmarkError.failed("no visible \(identifier) on \(harness.coordinator.current.screenName)")
        }
        let offset = runtime.layout.state.scrollOffsets[identifier]
        var samples: [Double] = []
        var y = frame.maxY - 4
        var step = -12
        _ = try touch.down(Point(x: frame.midX, y: y))
        _ = await nextFrame()
        for _ in 0..<moves {
            if y + step < frame.minY + 4 || y + step > frame.maxY - 4 { step = -step }
            y += step
            let start = ContinuousClock.now
            try touch.move(Point(x: frame.midX, y: y))
            samples.append((await nextFrame() - start).milliseconds)
        }
        try touch.up()
        await quiet()
        guard runtime.layout.state.scrollOffsets[identifier] != offset || moves == 0 else {
            throw BenchmarkError.failed("dragging \(identifier) did not scroll it")
        }
        return samples
    }

    /// Presses and releases the centre of `identifier`; returns, in ms, each
    /// event's time from its first record written to its frame presented.
    private func tap(_ identifier: String, with touch: TouchInjector) async throws -> [Double] {
        let tree = runtime.layoutCurrentScreen()
        guard let frame = tree.visibleFrame(ofIdentifier: identifier, within: display.bounds), !frame.isEmpty else {
            throw BenchmarkError.failed("no visible \(identifier) on \(harness.coordinator.current.screenName)")
        }
        let pressStart = ContinuousClock.now
        _ = try touch.down(frame.center)
        let pressed = await nextFrame() - pressStart
        let releaseStart = ContinuousClock.now
        try touch.up()
        let released = await nextFrame() - releaseStart
        await quiet()
        return [pressed.milliseconds, released.milliseconds]
    }

    /// When the loop reported the next frame presented.
    private func nextFrame() async -> ContinuousClock.Instant {
        await withCheckedContinuation { presented = $0 }
    }

    /// Lets the view models' work and the frames it asks for finish, so no
    /// frame of the last event is counted as the next event's.
    private func quiet() async {
        await harness.coordinator.settle()
        var frames = -1
        while frames != runtime.loop.framesPresented {
            frames = runtime.loop.framesPresented
            try? await Task.sleep(for: .milliseconds(3))
        }
    }

    private func report(_ name: String, _ samples: [Double]) {
        let sorted = samples.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        print("\(name)_p50_ms: \(p50.fixed(decimals: 3))")
        print("\(name)_p99_ms: \(p99.fixed(decimals: 3))")
    }
}
