import Graphics

/// Turns one finger's down/move/up/cancel into taps, a pressed state and
/// list scrolling.
///
/// - Down on a control presses it (``InteractionState/pressed``).
/// - Moving within the slop keeps the press; beyond it inside a list turns
///   the touch into a drag that scrolls the list and releases the press.
///   Outside a list, leaving the control releases the press and coming back
///   restores it.
/// - Up on a still-pressed control reports a tap; text fields also take focus.
/// - Cancel (the kernel dropped the contact, a screen lock) releases
///   everything without a tap.
public struct TouchTracker: Sendable {
    /// How far in pixels a finger may wander before a press becomes a drag.
    public var slop: Int

    private enum Phase: Sendable {
        case idle
        case pressing(target: LayoutNode?, list: LayoutNode?, start: Point, startOffset: Int)
        case dragging(list: LayoutNode, start: Point, startOffset: Int)
    }

    private var phase: Phase = .idle

    /// - Parameter slop: Drag threshold in pixels (10 dp times the panel scale is comfortable).
    public init(slop: Int) { self.slop = slop }

    /// A tracker with a 10 dp slop for `scale`.
    public init(scale: Scale) { self.init(slop: scale.pixels(10)) }

    /// Whether a finger is currently down.
    public var isTracking: Bool {
        if case .idle = phase { return false }
        return true
    }

    public mutating func down(at point: Point, in tree: LayoutNode, state: inout InteractionState) {
        let path = tree.hitPath(at: point)
        let target = path.last { ($0.interaction == .tap || $0.interaction == .focus) && $0.isEnabled && $0.identifier != nil }
        let list = path.last { if case .scroll = $0.interaction { return $0.identifier != nil } else { return false } }
        let blocked = path.last { $0.interaction != .none }?.interaction == .blocker
        let offset = list.flatMap { state.scrollOffsets[$0.identifier!] } ?? 0
        phase = .pressing(target: blocked ? nil : target, list: blocked ? nil : list, start: point, startOffset: offset)
        state.pressed = blocked ? nil : target?.identifier
    }

    public mutating func move(to point: Point, state: inout InteractionState) {
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
    }

    /// Ends the touch; returns the identifier of the control it taps, if
    /// any (the finger went up on it without dragging away).
    public mutating func up(at point: Point, state: inout InteractionState) -> String? {
        defer { phase = .idle }
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

    /// Abandons the touch: no tap, nothing left pressed, scrolling stays where it is.
    public mutating func cancel(state: inout InteractionState) {
        phase = .idle
        state.pressed = nil
    }

    private func scroll(_ list: LayoutNode, by delta: Int, from startOffset: Int, state: inout InteractionState) {
        guard case .scroll(let contentHeight) = list.interaction, let id = list.identifier else { return }
        let maxOffset = max(0, contentHeight - list.frame.height)
        state.scrollOffsets[id] = min(maxOffset, max(0, startOffset + delta))
    }
}
