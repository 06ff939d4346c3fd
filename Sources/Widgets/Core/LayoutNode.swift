import Graphics

/// A widget after layout: its frame in pixels, what it paints, how it reacts
/// to touch, how it presents itself to accessibility, and its children.
///
/// Trees are values; two trees of successive states are diffed by
/// ``DamageTracker`` and hit-tested by ``hitPath(at:)``. A press changes
/// no layout: a pressable node carries both of its looks (``press``), and
/// ``PressableNodes`` swaps them in place and names the one rect to redraw.
///
/// Each node keeps a hash of what it and its subtree draw (``drawnHash``),
/// made as the tree is built, so that comparing two trees only descends
/// where something drawn changed: a changed label costs its path from the
/// root, not a walk over every node.
public struct LayoutNode: Hashable, Sendable {
    /// A hash of the frame, paints, clipping and children's drawn hashes,
    /// kept current as they change. Equal trees have equal hashes; two
    /// different trees have equal ones with a chance of 2^-64.
    public private(set) var drawnHash: Int = 0
    public var frame: Rect { didSet { rehash() } }
    public var role: AccessibilityRole
    /// Stable id used by the app for taps and by QA to find the control.
    public var identifier: String?
    /// The name read out for this node (usually its visible text).
    public var label: String?
    /// The current value (a field's text, a badge's state).
    public var value: String?
    public var isEnabled: Bool
    public var interaction: Interaction
    /// Drawn before the children, in order.
    public var paints: [Paint] { didSet { rehash() } }
    /// A control that shows a press: what it draws released and pressed.
    /// ``paints`` is one of the two, as the interaction state had it at layout.
    public var press: PressAppearance?
    /// Children are clipped to ``frame`` (scrolling lists).
    public var clipsChildren: Bool { didSet { rehash() } }
    /// True when some of the node's own text did not fit and an ellipsis
    /// stands in for it: what the operator reads is not all there is.
    public var isTruncated: Bool
    public var children: [LayoutNode] { didSet { rehash() } }
    /// Set on a scrolling node that can be laid out again alone and may
    /// leave children unbuilt (``ScrollingContent``); they draw nothing.
    public var scrolling: Scrolling?

    public init(
        frame: Rect, role: AccessibilityRole, identifier: String? = nil, label: String? = nil,
        value: String? = nil, isEnabled: Bool = true, interaction: Interaction = .none,
        paints: [Paint] = [], press: PressAppearance? = nil, clipsChildren: Bool = false, isTruncated: Bool = false, children: [LayoutNode] = [],
        scrolling: Scrolling? = nil
    ) {
        self.frame = frame
        self.role = role
        self.identifier = identifier
        self.label = label
        self.value = value
        self.isEnabled = isEnabled
        self.interaction = interaction
        self.paints = paints
        self.press = press
        self.clipsChildren = clipsChildren
        self.isTruncated = isTruncated
        self.children = children
        self.scrolling = scrolling
        rehash()
    }

    /// ``children`` and, in order among them, those a ``scrolling`` node
    /// left unbuilt (a long list's rows out of view): what accessibility and
    /// the look-ups by identifier see. Built on each call.
    public var allChildren: [LayoutNode] { scrolling?.content.allChildren(of: self) ?? children }

    private mutating func rehash() {
        var hasher = Hasher()
        hasher.combine(frame)
        hasher.combine(paints)
        hasher.combine(clipsChildren)
        hasher.combine(children.count)
        for child in children { hasher.combine(child.drawnHash) }
        drawnHash = hasher.finalize()
    }

    /// Equal nodes draw the same, so they have the same ``drawnHash``; the
    /// rest of an equal node need not be hashed again.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(drawnHash)
        hasher.combine(identifier)
    }

    /// Calls `body` for this node and every descendant (``allChildren``), parents first.
    public func forEach(_ body: (LayoutNode) throws -> Void) rethrows {
        try body(self)
        for child in allChildren { try child.forEach(body) }
    }

    /// The part of the node with `identifier` that can be seen and touched:
    /// its frame cut by `bounds` (the screen) and by every clipping ancestor
    /// (a scrolled list). Empty when it is scrolled out of view or off
    /// screen; nil when there is no such node.
    public func visibleFrame(ofIdentifier identifier: String, within bounds: Rect) -> Rect? {
        if self.identifier == identifier { return frame.intersection(bounds) }
        let clip = clipsChildren ? bounds.intersection(frame) : bounds
        for child in allChildren {
            if let found = child.visibleFrame(ofIdentifier: identifier, within: clip) { return found }
        }
        return nil
    }

    /// The first node (depth first) with `identifier`.
    public func node(withIdentifier identifier: String) -> LayoutNode? {
        if self.identifier == identifier { return self }
        for child in allChildren {
            if let found = child.node(withIdentifier: identifier) { return found }
        }
        return nil
    }
}
