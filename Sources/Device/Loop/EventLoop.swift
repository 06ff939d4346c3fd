import SystemCalls
import Dispatch
import Glibc
import Graphics

/// Teller's single-threaded main loop, on the main dispatch queue.
///
/// Descriptors (the DRM fd, evdev fds, inotify), timers and SIGTERM/SIGINT
/// all become main-actor handlers (descriptors through one epoll set that
/// the main thread itself waits on when it serves the main queue,
/// ``MainThread``), so @MainActor view models and async tasks
/// run between them with no locks. Frames are drawn only when the display is
/// ready (no flip pending) and something asked for one: at most once per
/// vblank, and the loop never waits for vblank. A frame counts as presented
/// (``onFramePresented``) only once it is on the panel: when `present`
/// returns for displays whose frames complete at once (offscreen, fbdev),
/// when the page-flip event arrives for DRM.
///
/// ``stop(status:)`` runs the cleanups (restoring the CRTC among them) and exits.
@MainActor
public final class EventLoop {
    /// Keeps a watch or timer alive; cancel it to stop.
    public final class Token {
        fileprivate let held: any LoopCancellable
        fileprivate init(_ held: any LoopCancellable) { self.held = held }
        public func cancel() { held.cancel() }
    }

    /// Draws a frame: given the back buffer and what of it is stale, returns what changed.
    public typealias Renderer = @MainActor (_ surface: Surface, _ stale: Rect) -> Rect

    private var tokens: [Token] = []
    /// The descriptors watched, in one epoll set (see ``MainThread``).
    private let watches = WatchSet()
    var inputRouters: [InputRouter] = []
    private var cleanups: [@MainActor () -> Void] = []
    private var display: (any Display)?
    private var renderer: Renderer?
    private var displayWatch: Token?
    private var needsDisplay = false
    private var renderScheduled = false
    /// A frame was handed to the display and its flip has not completed yet.
    private var presentPending = false
    public private(set) var framesRendered = 0
    public private(set) var framesPresented = 0
    /// Called on the main queue each time a frame has reached the panel, not
    /// merely been drawn: systemd's READY must mean the operator sees the
    /// screen. It is given when, as the display reports it
    /// (``Display/lastPresentedAt``): for DRM, the page flip's kernel time.
    public var onFramePresented: (@MainActor (MonotonicInstant) -> Void)?

    /// Where the loop reads the time and runs its timers: the monotonic
    /// clock, or a ``ManualLoopClock`` that a test advances.
    public let clock: any LoopClock

    /// - Parameter clock: nil for the terminal's ``MonotonicLoopClock``.
    public init(clock: (any LoopClock)? = nil) {
        self.clock = clock ?? MonotonicLoopClock()
    }

    /// Calls `handler` on the main actor whenever `fd` is readable.
    ///
    /// - Parameter owner: kept alive until the watch is cancelled; pass the
    ///   object that closes `fd`, so the descriptor outlives its watch.
    @discardableResult
    public func watch(_ fd: Int32, keepingAlive owner: AnyObject? = nil, _ handler: @escaping @MainActor () -> Void) -> Token {
        keep(watches.watch(fd, keepingAlive: owner, handler))
    }

    /// Calls `handler` every `milliseconds` on ``clock``, first after one period.
    @discardableResult
    public func every(milliseconds: Int, _ handler: @escaping @MainActor () -> Void) -> Token {
        keep(clock.schedule(after: .milliseconds(milliseconds), repeating: .milliseconds(milliseconds), handler))
    }

    /// Calls `handler` once after `milliseconds` on ``clock``.
    @discardableResult
    public func after(milliseconds: Int, _ handler: @escaping @MainActor () -> Void) -> Token {
        keep(clock.schedule(after: .milliseconds(milliseconds), repeating: nil, handler))
    }

    /// Handles SIGTERM and SIGINT on the main queue: the default stops the loop cleanly.
    ///
    /// The signals are ignored as process dispositions and read by dispatch
    /// signal sources (signalfd on Linux). Under ``run()`` every thread blocks
    /// them, so only process-directed signals arrive: `kill(pid)` from systemd
    /// or a test works, `raise()` from a main-queue block does not.
    public func handleTerminationSignals(_ handler: (@MainActor (Int32) -> Void)? = nil) {
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated {
                    if let handler { handler(signalNumber) } else { self.stop(status: 0) }
                }
            }
            keep(source)
        }
    }

    /// Runs `body` at ``stop(status:)``, last registered first.
    public func addCleanup(_ body: @escaping @MainActor () -> Void) {
        cleanups.append(body)
    }

    /// Draws on `display` with `renderer` whenever ``setNeedsDisplay()`` was called and the display is ready.
    public func attach(display: any Display, renderer: @escaping Renderer) {
        self.display = display
        self.renderer = renderer
        presentPending = false
        displayWatch?.cancel()
        if let fd = display.readableDescriptor {
            displayWatch = watch(fd) { [unowned self] in self.displayReadable() }
        }
    }

    /// The display's descriptor is readable: a pending flip may have completed.
    func displayReadable() {
        guard let display else { return }
        do { try display.handleReadable() } catch { Self.reportError(error) }
        if presentPending && display.isReadyForFrame {
            presentPending = false
            framePresented()
        }
        renderIfReady()
    }

    /// Asks for a frame; several requests before the next vblank make one frame.
    public func setNeedsDisplay() {
        needsDisplay = true
        guard !renderScheduled else { return }
        renderScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.renderScheduled = false
                self.renderIfReady()
            }
        }
    }

    /// Renders now if a frame was asked for and the display can take one.
    public func renderIfReady() {
        guard needsDisplay, let display, let renderer, display.isReadyForFrame else { return }
        needsDisplay = false
        let damage = renderer(display.backBuffer, display.staleRegion)
        do {
            try display.present(damage: damage)
            framesRendered += 1
        } catch {
            Self.reportError(error)
            return
        }
        // Ready again at once means the frame is already shown; otherwise its
        // flip completes later, in displayReadable().
        if display.isReadyForFrame { framePresented() } else { presentPending = true }
    }

    private func framePresented() {
        framesPresented += 1
        guard let onFramePresented else { return }
        onFramePresented(display?.lastPresentedAt ?? clock.now)
    }

    /// A display error the loop survives, on stderr with syslog's error
    /// priority so journald files it as an error.
    private static func reportError(_ error: any Error) {
        try? StandardStream.error.writeAll(Array("<3>display: \(error)\n".utf8))
    }

    /// Serves the main queue and this loop's descriptors on the calling
    /// main thread forever (until ``stop(status:)``): ``MainThread``.
    public func run() -> Never {
        MainThread.serveForever()
    }

    /// Runs the cleanups, releases the display (restoring the CRTC) and exits.
    public func stop(status: Int32) -> Never {
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups.removeAll()
        for token in tokens { token.cancel() }
        displayWatch?.cancel()
        // exit() runs no deinit, so the console's CRTC is put back explicitly.
        if let drm = display as? DRMDisplay { drm.restore() }
        display = nil
        exit(status)
    }

    /// Keeps `source` alive until it is cancelled. Sources already cancelled
    /// (one-shot timers that fired, watches of removed devices) are let go
    /// here, so a timer asked for every frame does not grow the loop.
    @discardableResult
    private func keep(_ source: any DispatchSourceProtocol) -> Token {
        source.resume()
        return keep(DispatchHandle(source))
    }

    private func keep(_ held: any LoopCancellable) -> Token {
        tokens.removeAll { $0.held.isCancelled }
        let token = Token(held)
        tokens.append(token)
        return token
    }

    /// Watches, timers and signal sources the loop holds (for tests).
    var heldSources: Int { tokens.count }
}
