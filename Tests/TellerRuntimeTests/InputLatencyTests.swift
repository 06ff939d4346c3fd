import Device
import Glibc
import Graphics
import TellerFakes
import TellerFeatures
import Testing
import Widgets
@testable import TellerRuntime

/// `log_latency`'s figures: each press, release and key is matched with the
/// frame that first shows it, on the terminal's own path (a pipe read by the
/// real main loop, the input monitor's decoders, the runtime, a
/// double-buffered offscreen display), and its line is the difference of the
/// two times it prints.
@MainActor
@Suite struct InputLatencyTests {
    @Test func theLineIsTheDifferenceOfTheTwoTimesItPrints() {
        let latency = InputLatency(kind: .press, input: MonotonicInstant(seconds: 812, microseconds: 4_120),
                                   presented: MonotonicInstant(seconds: 812, microseconds: 21_337))
        #expect(latency.microseconds == 17_217)
        #expect(latency.description == "latency: press input=812.004120 presented=812.021337 ms=17.217")
        // Across a second, under a millisecond, and nanoseconds below the stamps' resolution dropped.
        #expect(InputLatency(kind: .key, input: MonotonicInstant(seconds: 9, microseconds: 999_999),
                             presented: MonotonicInstant(nanoseconds: 10_000_040_999)).description
                == "latency: key input=9.999999 presented=10.000040 ms=0.041")
        // Clocks that differ show as a negative figure, not as a plausible one.
        #expect(InputLatency(kind: .release, input: MonotonicInstant(seconds: 5, microseconds: 2_000),
                             presented: MonotonicInstant(seconds: 5, microseconds: 500)).description
                == "latency: release input=5.002000 presented=5.000500 ms=-1.500")
    }

    @Test func eachPressAndReleaseIsReportedWithTheFrameThatShowsIt() async throws {
        let rig = try Rig()
        var presented: [MonotonicInstant] = []
        rig.runtime.onFramePresented = { presented.append($0) }
        try await rig.start()
        let key = try rig.centre(of: "sign-in.pin.7")

        // Press and release apart: each waits for its own frame.
        let beforePress = MonotonicInstant.now()
        _ = try rig.touch.down(key)
        let afterPress = MonotonicInstant.now()
        let press = try await rig.nextReports(1)
        let beforeRelease = MonotonicInstant.now()
        try rig.touch.up()
        let afterRelease = MonotonicInstant.now()
        let release = try await rig.nextReports(1)

        #expect(press.map(\.kind) == [.press])
        #expect(release.map(\.kind) == [.release])
        // The input time is the record's own stamp, taken while it was written.
        #expect(press.allSatisfy { beforePress <= $0.input && $0.input <= afterPress }, "\(beforePress) \(press) \(afterPress)")
        #expect(release.allSatisfy { beforeRelease <= $0.input && $0.input <= afterRelease }, "\(beforeRelease) \(release) \(afterRelease)")
        // The presented time is the one the loop reported for a frame, after the input.
        for report in press + release {
            #expect(presented.contains(report.presented), "\(report) is not a presented frame's time: \(presented)")
            #expect(report.presented >= report.input)
            #expect(report.microseconds == report.presented.microseconds - report.input.microseconds)
        }
        #expect(press[0].presented < release[0].presented, "two frames, two times")
        #expect(rig.runtime.coordinator.current.screenName == "sign-in")
    }

    @Test func inputsDrawnInOneFrameShareItsTime() async throws {
        let rig = try Rig()
        try await rig.start()
        // Both records are in the pipe before the loop reads it: one read, one frame.
        try rig.touch.tap(try rig.centre(of: "sign-in.pin.4"))
        let reports = try await rig.nextReports(2)
        #expect(reports.map(\.kind) == [.press, .release])
        #expect(reports[0].presented == reports[1].presented)
        #expect(reports[0].input <= reports[1].input)
    }

    @Test func withoutAReporterNothingIsRecorded() async throws {
        let rig = try Rig(reporting: false)
        try await rig.start()
        try rig.touch.tap(try rig.centre(of: "sign-in.pin.4"))
        let frames = rig.runtime.loop.framesPresented
        try await rig.waitUntil { rig.runtime.loop.framesPresented > frames }
        #expect(rig.runtime.latency == nil)
        #expect(rig.reports.isEmpty)
    }
}

/// The terminal's runtime on the fakes with a pipe touchscreen, as `teller-bench input` drives it.
@MainActor
private final class Rig {
    let harness = FeatureHarness()
    let display = OffscreenDisplay(physicalSize: Size(width: 800, height: 480), bufferCount: 2)
    let runtime: TerminalRuntime
    var touch: TouchInjector!
    let inputDirectory: String
    var reports: [InputLatency] = []
    private var taken = 0

    init(reporting: Bool = true) throws {
        // An empty input directory: only the test's pipe touches this terminal.
        var template = Array("/tmp/teller-latency-input-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        inputDirectory = directory
        let monitor = InputMonitor(configuration: .init(directory: directory, transform: display.transform))
        runtime = TerminalRuntime(display: display, fonts: try FontLibrary(), monitor: monitor, coordinator: harness.coordinator, scale: Scale(1))
        if reporting { runtime.reportInputLatency { [unowned self] in reports.append($0) } }
    }

    /// Every rig stays alive to the end of the process, as the terminal does:
    /// the runtime gives its main loop's sources and the coordinator's
    /// tasks unowned references, and those can still run after a test returns.
    private static var alive: [Rig] = []

    func start() async throws {
        Self.alive.append(self)
        runtime.start()
        // Watched now; nothing is left behind in /tmp.
        rmdir(inputDirectory)
        await harness.coordinator.start()
        let device = try runtime.loop.attachPipeDevice(capabilities: TouchInjector.capabilities(name: "test touchscreen"), to: runtime.monitor)
        touch = TouchInjector(transform: display.transform, sink: device)
        try await waitUntil { self.runtime.loop.framesPresented > 0 && self.runtime.coordinator.current.screenName == "sign-in" }
    }

    func centre(of identifier: String) throws -> Point {
        let tree = runtime.layoutCurrentScreen()
        let frame = try #require(tree.visibleFrame(ofIdentifier: identifier, within: display.bounds))
        return frame.center
    }

    /// The next `count` reports; fails rather than hangs when they never come.
    func nextReports(_ count: Int) async throws -> [InputLatency] {
        try await waitUntil { self.reports.count >= self.taken + count }
        defer { taken += count }
        return Array(reports[taken..<(taken + count)])
    }

    /// Lets the main loop run until `condition` holds, for at most 10 s (a
    /// bound on a hang, not a figure under test).
    func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<5000 where !condition() { try await Task.sleep(for: .milliseconds(2)) }
        try #require(condition())
    }
}
