import Device
import Dispatch
import Graphics
import Widgets

extension TerminalApp {
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

    /// Seconds since the app started, on the monotonic clock a fling runs on.
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
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(16)) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.animationFramePending = false
                self.loop.setNeedsDisplay()
            }
        }
    }

    /// Announces READY (systemd and the "ready:" log line that scripts,
    /// tests and `teller-bench startup` wait for) once the first frame is on
    /// the panel: after a DRM page flip completes, not when it is queued, so
    /// READY never precedes what the operator sees.
    func framePresented() {
        guard !announcedReady else { return }
        announcedReady = true
        notifier.ready()
        Log.info("ready: first frame presented on \(display.name)")
    }

    /// The widget tree of the screen on top, at the display's size.
    func layoutCurrentScreen() -> LayoutNode {
        layout.state = view.interactionState(layout.state)
        return layout.layout(view.body(), in: display.size)
    }

    /// A full rendering of the current screen into a new surface, for
    /// screenshots: the same renderer and layout as the panel.
    func snapshot() -> Surface {
        let surface = Surface(size: display.size)
        renderer.render(layoutCurrentScreen(), into: surface)
        return surface
    }
}
