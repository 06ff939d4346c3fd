import Cryptography
import Device
import FoundationEssentials
import Graphics
import ProcessHarness
import TellerConfiguration
import TellerCore
import TellerFeatures
import TellerTerminal
import Widgets

/// The terminal as `teller run` builds it (``TerminalApp``: the store on a
/// fresh data directory, the sync engine, the coordinator, printing and the
/// control socket), online to the reference host and its demo data on
/// loopback, on a double-buffered 1280x800 offscreen panel (as DRM
/// double-buffers) and touched through a pipe that its real main loop
/// watches: kernel-format `input_event` records, read and decoded by the
/// input monitor. What `teller-bench input` and `glyphs` measure is then
/// the terminal's own path, with no fake behind a port.
@MainActor
final class BenchTerminal {
    /// The demo account the reference host knows (Anna Schmidt).
    static let account = try! IBAN("DE54500105170426397158")
    /// The technician PIN whose hash the terminal is given.
    static let technicianPIN = "987654"

    let app: TerminalApp
    let display: OffscreenDisplay
    let touch: TouchInjector
    /// The bank; ``takeHostDown()`` stops it.
    private let host: ReferenceHost
    /// Holds the data directory, the host's file and the control socket until the run ends.
    private let work: TemporaryDirectory

    var coordinator: Coordinator { app.coordinator }
    var loop: EventLoop { app.loop }

    /// Starts the host and the terminal and waits for its first frame.
    /// - Parameter settings: teller.conf keys on top of the bench's own.
    init(settings: [(String, String)] = []) async throws {
        work = try TemporaryDirectory("teller-bench-terminal", in: TemporaryDirectory.systemPath)
        host = try await ReferenceHost(directory: work).start()
        let secret = work.file("secret")
        try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        let config = work.file("teller.conf")
        try Data("# teller-bench\n".utf8).write(to: URL(fileURLWithPath: config))
        let own: [(String, String)] = [
            ("data-dir", work.file("data")), ("runtime-dir", work.file("run")), ("display", "offscreen"), ("offscreen-size", "1280x800"),
            ("terminal-id", "T-0001"), ("host-url", host.url.absoluteString), ("secret-file", secret),
            ("technician-pin-hash", try PINHasher.interactive.verifier(for: Self.technicianPIN)),
        ]
        let options = CommandLineOptions(["--config", config] + (own + settings).flatMap { ["--" + $0.0, $0.1] })
        guard options.problems.isEmpty else {
            throw BenchmarkError.failed("the bench's configuration: " + options.problems.map(\.description).joined(separator: "; "))
        }
        display = OffscreenDisplay(physicalSize: Size(width: 1280, height: 800), bufferCount: 2)
        app = try TerminalApp(configuration: options.configuration, configurationPath: config, display: display)
        app.start()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while !app.announcedReady {
            guard clock.now < deadline else { throw BenchmarkError.failed("the terminal presented no first frame in 30 s") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let device = try app.loop.attachPipeDevice(capabilities: TouchInjector.capabilities(name: "teller-bench touchscreen"), to: app.monitor)
        touch = TouchInjector(transform: display.transform, sink: device)
    }

    /// Calls `body` with the time of each frame presented from now on, in
    /// the loop's own callback, after the terminal's (READY, the start-up pages).
    func onFramePresented(_ body: @escaping @MainActor (ContinuousClock.Instant) -> Void) {
        let terminals = app.runtime.onFramePresented
        app.runtime.onFramePresented = { frame in
            let now = ContinuousClock.now
            terminals?(frame)
            body(now)
        }
    }

    /// The bank goes away: the terminal's next request fails and what is
    /// entered from then on waits in its queue.
    func takeHostDown() async {
        await host.stop()
    }

    /// The frame of `identifier` in the tree on the panel, or a failure naming the screen.
    func visibleFrame(_ identifier: String, in tree: LayoutNode? = nil) throws -> Rect {
        guard let tree = tree ?? app.tree, let frame = tree.visibleFrame(ofIdentifier: identifier, within: display.bounds), !frame.isEmpty else {
            throw BenchmarkError.failed("no visible \(identifier) on \(coordinator.current.screenName)")
        }
        return frame
    }

    /// Fails unless `screen` is on top.
    func expect(_ screen: String) throws {
        guard coordinator.current.screenName == screen else {
            throw BenchmarkError.failed("the taps reached \(coordinator.current.screenName), not \(screen)")
        }
    }

    /// Lets the view models' work and the frames it asks for finish, so no
    /// frame of the last event is counted as the next event's.
    func quiet() async {
        await coordinator.settle()
        var frames = -1
        while frames != loop.framesPresented {
            frames = loop.framesPresented
            try? await Task.sleep(for: .milliseconds(3))
        }
    }

    /// Waits until a screen other than `screen` is on top and quiet (the
    /// host's answer to a sign-in or a look-up comes when it comes).
    func waitToLeave(_ screen: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while coordinator.current.screenName == screen {
            guard clock.now < deadline else { throw BenchmarkError.failed("still on \(screen) after 10 s") }
            try await Task.sleep(for: .milliseconds(5))
        }
        await quiet()
    }
}
