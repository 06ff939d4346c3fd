import Device
import Graphics
import TellerCore
import TellerFeatures
import TellerRuntime
import SystemCalls
import TellerConfiguration
import Widgets

/// Input to presented frame at 1280x800 on the terminal's own path, as
/// `teller run` builds it (``BenchTerminal``: the real store, sync engine
/// and coordinator, online to the reference host): kernel-format
/// `input_event` records are written to a pipe that the real main loop
/// watches (epoll, through Dispatch), read and decoded by the
/// InputMonitor's touch decoder, hit-tested and handled by
/// TerminalRuntime, TerminalView, the screen's view model and the
/// coordinator, laid out, diffed, drawn where damaged and presented into
/// the other of two scanout buffers, as DRM double-buffers. The clock
/// starts before the first record of an event is written and stops in the
/// loop's frame-presented callback (not when the waiting task runs again
/// after it). Each tap is two samples, its press and its release.
let inputBenchmark = Benchmark(
    name: "input", summary: "kernel event written -> real main loop -> screens -> frame presented at 1280x800",
    usage: """
        Figures (ms, over every press and release):
          keypad_input_to_present_p50_ms / _p99_ms       digit and backspace taps on the amount keypad
          navigation_input_to_present_p50_ms / _p99_ms   Back to the account and Deposit to the amount screen
          input_to_present_p50_ms / _p99_ms              both together
          input_to_present_loaded_p50_ms / _p99_ms       both again, while the other core spins and commits to SQLite
          scroll_1000_rows_input_to_present_p50_ms / _p99_ms   each finger move dragging a queue of 1,000 payments
                                                         entered while the bank was down
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
        It starts deploy/reference-host/teller-host on loopback, as `teller-bench startup` does.
        """
) { args in
    let taps = args.firstIndex(of: "--taps").flatMap { Int(args[$0 + 1]) } ?? 200
    let priority = args.firstIndex(of: "--frame-priority").flatMap { Int32(args[$0 + 1]) } ?? Configuration.defaultFramePriority
    try await InputBench().run(taps: taps, framePriority: priority)
}

@MainActor
private final class InputBench {
    /// Set once the terminal runs.
    var terminal: BenchTerminal!
    /// Resumed with the time the loop reported the next frame presented.
    var presented: CheckedContinuation<ContinuousClock.Instant, Never>?

    func run(taps: Int, framePriority priority: Int32) async throws {
        print(MachineConditions.describe())
        // The queue below is 1,000 payments entered offline: limits that let them in.
        terminal = try await BenchTerminal(settings: [("frame-priority", "0"), ("limit-daily", "100000000"),
                                                      ("limit-offline-queued-total", "100000000")])
        terminal.onFramePresented { [unowned self] now in
            // The clock stops here, in the loop's callback, not when the awaiting task next runs.
            let waiting = presented
            presented = nil
            waiting?.resume(returning: now)
        }
        // The loop's thread is this one (the main thread, as in `teller run`); the terminal
        // was started without a priority so that this run's option alone decides it.
        framePriority(priority)
        let touch = terminal.touch
        await terminal.quiet()

        // To the amount screen by taps: the operator's ID and PIN (the bank checks them), then the account by its IBAN.
        for id in ["1", "0", "0", "1", "enter", "1", "2", "3", "4", "enter"].map({ "sign-in.pin.\($0)" }) {
            _ = try await tap(id, with: touch)
        }
        try await terminal.waitToLeave("sign-in")
        _ = try await tap("home.find-account", with: touch)
        for character in BenchTerminal.account.electronic { _ = try await tap("find-account.keys.\(character)", with: touch) }
        _ = try await tap("find-account.open", with: touch)
        try await terminal.waitToLeave("find-account")
        _ = try await tap("account.deposit", with: touch)
        try terminal.expect("amount")

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

        // The queue after days offline: the bank goes away, 1,000 deposits of 10.00, 10.01, …
        // are entered through the store, and a finger drags them up and down.
        await terminal.takeHostDown()
        for index in 0..<1_000 {
            _ = try await terminal.app.live.store.enqueue(try TransactionRequest(
                kind: .deposit, account: BenchTerminal.account, amount: Money(minorUnits: 1_000 + Int64(index), currency: .eur),
                operatorID: OperatorID("1001")!))
        }
        await terminal.coordinator.refreshStatus()
        for id in ["amount.back", "account.back", "find-account.back", "home.queue"] { _ = try await tap(id, with: touch) }
        try terminal.expect("queue")
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
        try terminal.expect("amount")
        return (keypad, navigation)
    }

    /// Puts a finger on the middle of `identifier` and moves it `moves` times,
    /// 12 pixels at a time, up past the slop and then back and forth over a
    /// screen's height; returns, in ms, each move's time from its first
    /// record written to its frame presented.
    private func drag(_ identifier: String, moves: Int, with touch: TouchInjector) async throws -> [Double] {
        let frame = try terminal.visibleFrame(identifier, in: terminal.app.layoutCurrentScreen())
        let offset = terminal.app.runtime.layout.state.scrollOffsets[identifier]
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
        await terminal.quiet()
        guard terminal.app.runtime.layout.state.scrollOffsets[identifier] != offset || moves == 0 else {
            throw BenchmarkError.failed("dragging \(identifier) did not scroll it")
        }
        return samples
    }

    /// Presses and releases the centre of `identifier`; returns, in ms, each
    /// event's time from its first record written to its frame presented.
    private func tap(_ identifier: String, with touch: TouchInjector) async throws -> [Double] {
        let frame = try terminal.visibleFrame(identifier, in: terminal.app.layoutCurrentScreen())
        let pressStart = ContinuousClock.now
        _ = try touch.down(frame.center)
        let pressed = await nextFrame() - pressStart
        let releaseStart = ContinuousClock.now
        try touch.up()
        let released = await nextFrame() - releaseStart
        await terminal.quiet()
        return [pressed.milliseconds, released.milliseconds]
    }

    /// When the loop reported the next frame presented.
    private func nextFrame() async -> ContinuousClock.Instant {
        await withCheckedContinuation { presented = $0 }
    }

    private func report(_ name: String, _ samples: [Double]) {
        let sorted = samples.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        print("\(name)_p50_ms: \(p50.fixed(decimals: 3))")
        print("\(name)_p99_ms: \(p99.fixed(decimals: 3))")
    }
}
