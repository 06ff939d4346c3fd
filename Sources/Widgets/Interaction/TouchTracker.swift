import Glibc
import Graphics

/// Turns one finger's down/move/up/cancel into taps, a pressed state and
/// list scrolling, and keeps a flung list moving after the finger lifts.
///
/// - Down on a control presses it (``InteractionState/pressed``).
/// - Moving within the slop keeps the press; beyond it inside a list turns
///   the touch into a drag that scrolls the list and releases the press.
///   Outside a list, leaving the control releases the press and coming back
///   restores it.
/// - Up on a still-pressed control reports a tap; text fields also take focus.
/// - Up at the end of a drag that was still moving starts a fling: the list
///   keeps scrolling and slows down exponentially (``Fling``), advanced by
///   ``step(now:state:)`` once per frame while ``isAnimating``. It stops at
///   either end of the list. A new touch stops it and taps nothing: the
///   finger that catches a moving list does not also open a row.
/// - Cancel (the kernel dropped the contact, a screen lock) releases
///   everything without a tap.
///
/// Times are seconds on any clock. Touch times (the kernel's event
/// timestamps) only measure the finger's speed against each other; the
/// fling runs on the clock ``step(now:state:)`` is given, from its first
/// call on. So tests pass both explicitly, and the two clocks need not agree.
public struct TouchTracker: Sendable {
    /// How far in pixels a finger may wander before a press becomes a drag.
    public var slop: Int
    /// The slowest lift, in pixels per second, that flings; slower, the list stops where the finger left it.
    public var minimumFlingSpeed: Double
    /// A flung list stops once it is slower than this, in pixels per second.
    public var stopSpeed: Double

    private enum Phase: Sendable {
        case idle
        case pressing(target: LayoutNode?, list: LayoutNode?, start: Point, startOffset: Int)
        case dragging(list: LayoutNode, start: Point, startOffset: Int)
    }

    private var phase: Phase = .idle
    /// Where the finger was lately while dragging: the lift speed is measured over these.
    private var recent: [(time: Double, y: Int)] = []
    private var fling: Fling?

    /// How far back the lift speed looks; a finger that rested longer than this before lifting does not fling.
    static let speedWindow = 0.1

    /// - Parameters:
    ///   - slop: Drag threshold in pixels (10 dp times the panel scale is comfortable).
    ///   - minimumFlingSpeed: Pixels per second below which a lift does not fling.
    ///   - stopSpeed: Pixels per second below which a fling ends.
    public init(slop: Int, minimumFlingSpeed: Double = 100, stopSpeed: Double = 20) {
        self.slop = slop
        self.minimumFlingSpeed = minimumFlingSpeed
        self.stopSpeed = stopSpeed
    }

    /// A tracker with a 10 dp slop, a 100 dp/s fling threshold and a 20 dp/s stop for `scale`.
    public init(scale: Scale) {
        self.init(slop: scale.pixels(10), minimumFlingSpeed: scale.factor * 100, stopSpeed: scale.factor * 20)
    }

    /// Whether a finger is currently down.
    public var isTracking: Bool {
        if case .idle = phase { return false }
        return true
    }

    /// Whether a flung list is still moving: draw another frame, calling ``step(now:state:)`` first.
    public var isAnimating: Bool { fling != nil }

    /// A finger went down at `point` on the tree the operator sees.
    ///
    /// - Parameter time: When, in seconds; only differences between touch times matter.
    public mutating func down(at point: Point, time: Double = 0, in tree: LayoutNode, state: inout InteractionState) {
        let caughtFling = fling != nil
        fling = nil
        let path = tree.hitPath(at: point)
        let target = path.last { ($0.interaction == .tap || $0.interaction == .focus) && $0.isEnabled && $0.identifier != nil }
        let list = path.last { if case .scroll = $0.interaction { return $0.identifier != nil } else { return false } }
        let blocked = path.last { $0.interaction != .none }?.interaction == .blocker
        // A jump to the end stores an offset past it; the list shows it clamped, and a drag starts from what is shown.
        let offset = list.map { min(Self.maxOffset(of: $0), state.scrollOffsets[$0.identifier!] ?? 0) } ?? 0
        let pressed = blocked || caughtFling ? nil : target
        phase = .pressing(target: pressed, list: blocked ? nil : list, start: point, startOffset: offset)
        recent = [(time, point.y)]
        state.pressed = pressed?.identifier
    }

    /// The finger moved to `point` at `time` (seconds, as in ``down(at:time:in:state:)``).
    public mutating func move(to point: Point, time: Double = 0, state: inout InteractionState) {
        switch phase {
        case .idle:
            return
        case .pressing(let target, let list, let start, let startOffset):
            let moved = max(abs(point.x - start.x), abs(point.y - start.y))
            if moved > slop, let list {
                state.pressed = nil
                phase = .dragging(list: list, start: start, startOffset: startOffset)
                scroll(list, by: start.y - point.y, from: startOffset, state: &state)
            } else if let target {
                state.pressed = target.frame.contains(point) ? target.identifier : nil
            }
        case .dragging(let list, let start, let startOffset):
            scroll(list, by: start.y - point.y, from: startOffset, state: &state)
        }
        note(point, at: time)
    }

    /// Ends the touch; returns the identifier of the control it taps, if
    /// any (the finger went up on it without dragging away). A drag that
    /// was still moving flings its list.
    public mutating func up(at point: Point, time: Double = 0, state: inout InteractionState) -> String? {
        defer {
            phase = .idle
            recent = []
        }
        if case .dragging(let list, let start, let startOffset) = phase {
            scroll(list, by: start.y - point.y, from: startOffset, state: &state)
            note(point, at: time)
            startFling(list, state: state)
        }
        guard case .pressing(let target?, _, _, _) = phase, let id = target.identifier else {
            state.pressed = nil
            return nil
        }
        let hit = state.pressed == id && target.frame.contains(point)
        state.pressed = nil
        guard hit else { return nil }
        if target.interaction == .focus { state.focused = id }
        return id
    }

    /// Abandons the touch: no tap, nothing left pressed, no fling; scrolling stays where it is.
    public mutating func cancel(state: inout InteractionState) {
        phase = .idle
        recent = []
        fling = nil
        state.pressed = nil
    }

    /// Moves a flung list to where it is at `now` (seconds on the frame
    /// clock); the first call after the lift starts that clock. Does nothing
    /// unless ``isAnimating``.
    public mutating func step(now: Double, state: inout InteractionState) {
        guard var current = fling else { return }
        current.advance(to: now)
        state.scrollOffsets[current.list] = Int(current.offset.rounded())
        fling = current.isFinished(stopSpeed: stopSpeed) ? nil : current
    }

    /// Stops a fling where it is (a jump to an end, a screen change).
    public mutating func stopAnimating() { fling = nil }

    private mutating func note(_ point: Point, at time: Double) {
        recent.append((time, point.y))
        recent.removeAll { time - $0.time > Self.speedWindow }
    }

    private mutating func startFling(_ list: LayoutNode, state: InteractionState) {
        guard let id = list.identifier, let last = recent.last, let first = recent.first, last.time > first.time else { return }
        // The finger moving up moves the content up: the offset grows.
        let velocity = Double(first.y - last.y) / (last.time - first.time)
        guard abs(velocity) >= minimumFlingSpeed else { return }
        let maxOffset = Self.maxOffset(of: list)
        let offset = min(maxOffset, max(0, state.scrollOffsets[id] ?? 0))
        // Already at the end it is thrown toward: nothing to animate.
        if (velocity > 0 && offset >= maxOffset) || (velocity < 0 && offset <= 0) { return }
        fling = Fling(list: id, maxOffset: maxOffset, offset: Double(offset), velocity: velocity)
    }

    private func scroll(_ list: LayoutNode, by delta: Int, from startOffset: Int, state: inout InteractionState) {
        guard let id = list.identifier else { return }
        state.scrollOffsets[id] = min(Self.maxOffset(of: list), max(0, startOffset + delta))
    }

    private static func maxOffset(of list: LayoutNode) -> Int {
        guard case .scroll(let contentHeight) = list.interaction else { return 0 }
        return max(0, contentHeight - list.frame.height)
    }
}

/// A list moving on after the finger lifted, slowing exponentially: the
/// speed falls to 1/e every ``timeConstant`` seconds, so a fling travels
/// its lift speed times the time constant in all (a fast swipe of
/// 3,000 px/s about 1,000 px), and a faster swipe goes proportionally further.
struct Fling: Sendable {
    /// Seconds for the speed to fall to 1/e (about 37 %); 0.325 s feels like a phone's list.
    static let timeConstant = 0.325

    let list: String
    let maxOffset: Int
    private(set) var offset: Double
    /// Pixels per second; positive scrolls toward the end.
    private(set) var velocity: Double
    private var lastTime: Double?

    init(list: String, maxOffset: Int, offset: Double, velocity: Double) {
        self.list = list
        self.maxOffset = maxOffset
        self.offset = offset
        self.velocity = velocity
    }

    /// Where the list is at `now`: the integral of the decaying speed since the last frame.
    mutating func advance(to now: Double) {
        defer { lastTime = now }
        guard let lastTime else { return }
        let decay = exp(-max(0, now - lastTime) / Self.timeConstant)
        offset += velocity * Self.timeConstant * (1 - decay)
        velocity *= decay
        if offset <= 0 || offset >= Double(maxOffset) {
            offset = min(Double(maxOffset), max(0, offset))
            velocity = 0
        }
    }

    func isFinished(stopSpeed: Double) -> Bool { abs(velocity) < stopSpeed }
}
