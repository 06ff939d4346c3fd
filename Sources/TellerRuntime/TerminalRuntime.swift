import Device
import Graphics
import Observation
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
    /// What `tree` was laid out from; while it still holds, a press or a
    /// release only swaps the control's paints through `pressable`.
    private var treeInputs: LayoutInputs?
    private var pressable: PressableNodes?
    /// The lists and scroll areas of `tree`: a drag or a fling lays out only the one it moves.
    private var scrollable: ScrollableNodes?
    /// Bumped whenever input reaches the screens (a tap, a key, a raw
    /// touch): they may change what a screen shows without a new revision.
    var screenInputs = 0
    /// Bumped when a view model changes anything the last layout read:
    /// Observation reports it (``trackingReads(_:)``), whoever made the
    /// change and from whatever task.
    public private(set) var stateRevision = 0
    private var body: (key: BodyKey, widget: any Widget)?
    /// Full layouts since start, for the benchmark and tests: a press must not add one.
    public private(set) var layoutCount = 0
    /// Lists and scroll areas laid out alone because only their offset changed, since start.
    public private(set) var scrollLayoutCount = 0
    /// Where `teller ctl touch/tap` and `type` inject kernel-format events.
    public internal(set) var syntheticTouch: TouchInjector?
    public internal(set) var syntheticKeyboard: KeyboardInjector?
    /// Devices coming and going, and input errors, for the caller's log.
    public var onDeviceNotice: ((InputNotice) -> Void)?
    /// No kernel input at all (no /dev/input, no permission): only the
    /// in-process devices, that is `teller ctl`, can touch the terminal.
    public var onInputUnavailable: ((InputError) -> Void)?
    /// After each frame is on the panel (a DRM page flip completed), with when.
    public var onFramePresented: ((MonotonicInstant) -> Void)?
    /// Set by ``reportInputLatency(_:)``; nil costs nothing.
    var latency: InputLatencyRecorder?
    var touch: TouchTracker
    /// When the runtime started on its loop's clock (a flung list moves on
    /// the seconds since), and whether the fling's next frame is already asked for.
    let animationEpoch: MonotonicInstant
    var animationFramePending = false
    /// Per keyboard: what it typed, to drop a scanner's duplicate `.scan`.
    var keyLines: [String: KeyLine] = [:]

    public init(loop: EventLoop = EventLoop(), display: any Display, fonts: FontLibrary, monitor: InputMonitor, coordinator: Coordinator,
                scale: Scale, textScale: Double = 1, theme: Theme = .standard) {
        self.loop = loop
        animationEpoch = loop.clock.now
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
        loop.attach(display: display) { [unowned self] surface, stale in
            self.latency?.frameDrawn()
            return self.renderFrame(into: surface, stale: stale)
        }
        loop.onFramePresented = { [unowned self] time in
            self.latency?.framePresented(at: time)
            self.onFramePresented?(time)
        }
        startInput()
        loop.setNeedsDisplay()
    }

    /// The widget tree of the screen on top, at the display's size: the
    /// tree on the panel when nothing it was laid out from has changed
    /// since, a new layout otherwise.
    public func layoutCurrentScreen() -> LayoutNode {
        layout.state = view.interactionState(layout.state)
        layout.direction = view.layoutDirection
        if let tree, currentInputs == treeInputs, pressable?.pressed == layout.state.pressed { return tree }
        layoutCount += 1
        return trackingReads { layout.layout(currentBody(), in: display.size) }
    }

    /// Runs a layout while Observation records which view-model state it
    /// reads (the body's strings, a list's rows, the focused field); the
    /// first later change to any of it schedules the next frame. This is
    /// what redraws a screen after a task changed its view model: no view
    /// model asks for a redraw. A frame that keeps the tree reads nothing
    /// new, and the layout's reads stay watched until one changes.
    private func trackingReads(_ layOut: () -> LayoutNode) -> LayoutNode {
        withObservationTracking {
            _ = view.focusedField
            return layOut()
        } onChange: { [weak self] in
            // Called as the change is made, before the new value is stored; view models
            // are main-actor state, so this is the main actor. The frame runs later, on the queue.
            MainActor.assumeIsolated { self?.stateChanged() }
        }
    }

    private func stateChanged() {
        stateRevision &+= 1
        loop.setNeedsDisplay()
    }

    /// The screen's widgets, built again only when what they show may have
    /// changed (a new revision, input that reached the screens): a list
    /// scrolled frame after frame is laid out again, its 1,000 rows are not
    /// built again.
    private func currentBody() -> any Widget {
        let key = BodyKey(revision: stateRevision, screenInputs: screenInputs, language: view.languageRevision)
        if let body, body.key == key { return body.widget }
        let widget = view.body()
        body = (key, widget)
        return widget
    }

    /// Everything a layout depends on but the press.
    private var currentInputs: LayoutInputs {
        var state = layout.state
        state.pressed = nil
        return LayoutInputs(revision: stateRevision, screenInputs: screenInputs, state: state, size: display.size,
                            scale: layout.scale, textScale: layout.textScale, theme: layout.theme,
                            direction: layout.direction, language: view.languageRevision)
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
    ///
    /// When only the press changed, the layout is kept and the control
    /// pressed and the one released are the damage. When besides it only
    /// scroll offsets changed (a drag, a fling), the lists they move are
    /// laid out alone into the kept tree and their viewports are the
    /// damage. Otherwise the screen is laid out again and compared with the
    /// tree on the panel.
    func renderFrame(into surface: Surface, stale: Rect) -> Rect {
        touch.step(now: animationSeconds, state: &layout.state)
        layout.state = view.interactionState(layout.state)
        layout.direction = view.layoutDirection
        let inputs = currentInputs
        var damage: [Rect]
        if let kept = keptTreeDamage(inputs) {
            damage = kept
        } else {
            let newTree = layoutCurrentScreen()
            // After a language switch every word may be another and every row mirrored: redraw it all
            // rather than compare two trees that share almost nothing.
            let sameLanguage = treeInputs.map { $0.language == inputs.language && $0.direction == inputs.direction } ?? false
            damage = tree.map { sameLanguage ? DamageTracker.damage(from: $0, to: newTree) : [surface.bounds] } ?? [surface.bounds]
            tree = newTree
            treeInputs = inputs
            pressable = PressableNodes(newTree, pressed: layout.state.pressed)
            scrollable = ScrollableNodes(newTree)
        }
        // What changed goes back to the display; the stale part it repaired was already on screen.
        // Counting it as changed would make every later frame of a double-buffered display whole.
        let changed = damage.reduce(Rect.zero) { $0.union($1) }
        let merged = DamageTracker.merged(stale.isEmpty ? damage : damage + [stale])
        if let tree, !merged.isEmpty { renderer.render(tree, into: surface, damage: merged) }
        if touch.isAnimating { requestAnimationFrame() }
        return changed
    }

    /// Brings the kept tree to `inputs` when they differ from what it was
    /// laid out from only in the press and in scroll offsets of lists it
    /// can lay out alone: the press swaps paints, each moved list is laid
    /// out again in place. Returns the damage, or nil (nothing changed)
    /// when the screen must be laid out again.
    private func keptTreeDamage(_ inputs: LayoutInputs) -> [Rect]? {
        guard var kept = tree, var pressable, let scrollable, let treeInputs,
              let scrolled = inputs.scrolledLists(since: treeInputs), scrollable.canRelayout(scrolled) else { return nil }
        tree = nil  // the one reference, so the press and the scroll change the tree in place
        // The press first, while the index's paths still lead to the nodes they name.
        var damage = pressable.press(layout.state.pressed, in: &kept)
        if !scrolled.isEmpty {
            damage += scrollable.relayout(scrolled, in: &kept, layout)
            scrollLayoutCount += scrolled.count
            pressable = PressableNodes(kept, pressed: layout.state.pressed)
            self.treeInputs = inputs
        }
        tree = kept
        self.pressable = pressable
        return damage
    }

    /// Whether a flung list is still moving (it asks for its own frames).
    public var isAnimating: Bool { touch.isAnimating }

    /// Seconds since the runtime started, on the loop's clock (the monotonic
    /// clock, or a test's manual one): a fling runs on it, as its frame timer does.
    private var animationSeconds: Double {
        Double(loop.clock.now.nanoseconds - animationEpoch.nanoseconds) / 1e9
    }

    /// Asks for another frame in about 16 ms on the loop's clock while a flung list moves. A
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

/// What a laid-out screen depends on, besides the control under the finger.
private struct LayoutInputs: Equatable {
    var revision: Int
    var screenInputs: Int
    var state: InteractionState
    var size: Size
    var scale: Scale
    var textScale: Double
    var theme: Theme
    /// A language switch lays the screen out again: other words, perhaps mirrored.
    var direction: LayoutDirection
    var language: Int
}

extension LayoutInputs {
    /// The lists whose scroll offset differs from `old`'s when nothing else
    /// but the press does (empty when only the press changed); nil when
    /// anything else changed.
    func scrolledLists(since old: LayoutInputs) -> Set<String>? {
        var same = self
        same.state.scrollOffsets = old.state.scrollOffsets
        guard same == old else { return nil }
        var moved: Set<String> = []
        for (list, offset) in state.scrollOffsets where old.state.scrollOffsets[list] != offset { moved.insert(list) }
        for list in old.state.scrollOffsets.keys where state.scrollOffsets[list] == nil { moved.insert(list) }
        return moved
    }
}

/// What the screen's widgets are built from: the view models' state, which
/// changes with a new revision or with input that reached them, and the language.
private struct BodyKey: Equatable {
    var revision: Int
    var screenInputs: Int
    /// The view models' strings are read while the body is built, so a language switch builds it again.
    var language: Int
}
