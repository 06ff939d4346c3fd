import Device
import Graphics
import TellerFeatures
import TellerUI
import Widgets

/// The terminal between the kernel and the screens: the display, the input
/// devices and the main loop that joins them to the coordinator, the screen
/// on top and the renderer. A kernel event goes in through the input
/// monitor's file descriptor, becomes a touch or a key for ``TerminalView``,
/// and comes out as a damaged region drawn and presented.
///
/// It knows nothing of where the data comes from: `teller run` builds it
/// over the live data layer, `teller-bench input` over the fakes, and both
/// measure the same path.
@MainActor
public final class TerminalRuntime {
    public let loop: EventLoop
    public let display: any Display
    public let renderer: Renderer
    public let monitor: InputMonitor
    public let coordinator: Coordinator
    public let view: TerminalView
    public var layout: LayoutContext
    /// The tree on the panel, after the last frame.
    public private(set) var tree: LayoutNode?
    /// Where `teller ctl touch/tap` and `type` inject kernel-format events.
    public internal(set) var syntheticTouch: TouchInjector?
    public internal(set) var syntheticKeyboard: KeyboardInjector?
    /// Devices coming and going, and input errors, for the caller's log.
    public var onDeviceNotice: ((InputNotice) -> Void)?
    /// No kernel input at all (no /dev/input, no permission): only the
    /// in-process devices, that is `teller ctl`, can touch the terminal.
    public var onInputUnavailable: ((InputError) -> Void)?
    /// After each frame is on the panel (a DRM page flip completed).
    public var onFramePresented: (() -> Void)?
    var touch: TouchTracker
    /// The clock a flung list moves on, and whether its next frame is already asked for.
    let animationEpoch = ContinuousClock.now
    var animationFramePending = false
    /// Per keyboard: what it typed, to drop a scanner's duplicate `.scan`.
    var keyLines: [String: KeyLine] = [:]

    public init(loop: EventLoop = EventLoop(), display: any Display, fonts: FontLibrary, monitor: InputMonitor, coordinator: Coordinator,
                scale: Scale, textScale: Double = 1, theme: Theme = .standard) {
        self.loop = loop
        self.display = display
        self.renderer = Renderer(fonts: fonts)
        self.monitor = monitor
        self.coordinator = coordinator
        view = TerminalView(coordinator: coordinator)
        layout = LayoutContext(scale: scale, textScale: textScale, theme: theme, fonts: fonts, state: InteractionState())
        touch = TouchTracker(scale: scale)
    }

    /// Draws on the display whenever something changed, and opens the
    /// evdev devices (following hotplug) and the in-process devices that
    /// `teller ctl` injects through.
    public func start() {
        loop.attach(display: display) { [unowned self] surface, stale in self.renderFrame(into: surface, stale: stale) }
        loop.onFramePresented = { [unowned self] in self.onFramePresented?() }
        coordinator.onChange = { [unowned self] in self.loop.setNeedsDisplay() }
        startInput()
        loop.setNeedsDisplay()
    }

    /// The widget tree of the screen on top, at the display's size.
    public func layoutCurrentScreen() -> LayoutNode {
        layout.state = view.interactionState(layout.state)
        return layout.layout(view.body(), in: display.size)
    }

    /// A full rendering of the current screen into a new surface, for
    /// screenshots: the same renderer and layout as the panel.
    public func snapshot() -> Surface {
        let surface = Surface(size: display.size)
        renderer.render(layoutCurrentScreen(), into: surface)
        return surface
    }

    /// Lays out the current screen and redraws what changed since the last
    /// frame plus what the back buffer missed.
    func renderFrame(into surface: Surface, stale: Rect) -> Rect {
        touch.step(now: animationSeconds, state: &layout.state)
        let newTree = layoutCurrentScreen()
        var damage = tree.map { DamageTracker.damage(from: $0, to: newTree) } ?? [surface.bounds]
        if !stale.isEmpty { damage.append(stale) }
        let merged = DamageTracker.merged(damage)
        if !merged.isEmpty { renderer.render(newTree, into: surface, damage: merged) }
        tree = newTree
        if touch.isAnimating { requestAnimationFrame() }
        return merged.reduce(Rect.zero) { $0.union($1) }
    }

    /// Seconds since the runtime started, on the monotonic clock a fling runs on.
    private var animationSeconds: Double {
        let elapsed = animationEpoch.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Asks for another frame in about 16 ms while a flung list moves. A
    /// timer, not an immediate request: an offscreen or fbdev display is
    /// ready again at once and would otherwise spin the loop. Nothing runs
    /// once the fling has stopped.
    private func requestAnimationFrame() {
        guard !animationFramePending else { return }
        animationFramePending = true
        loop.after(milliseconds: 16) { [weak self] in
            guard let self else { return }
            animationFramePending = false
            loop.setNeedsDisplay()
        }
    }
}
