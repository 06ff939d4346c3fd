import Graphics

/// Where the scrolling nodes of one laid-out tree are (list viewports,
/// scroll areas with more content than room), so that a drag or a fling
/// lays out only the node it moves and swaps it into the kept tree: the
/// rest of the screen is not laid out again, and the damage is the node's
/// visible frame (its rows and its indicator).
///
/// Laying out again through this index gives the same tree as laying the
/// whole screen out with the new offsets (WidgetsTests and TellerUITests
/// check this).
public struct ScrollableNodes: Sendable {
    struct Place: Sendable {
        let path: [Int]
        let visibleFrame: Rect
    }

    private var places: [String: Place] = [:]
    /// Identifiers that more than one node scrolls by, or one scrolling
    /// node inside another: those are laid out with the whole screen.
    private var ambiguous: Set<String> = []

    /// Indexes `tree`.
    public init(_ tree: LayoutNode) {
        index(tree, path: [], clip: tree.frame, inside: nil)
    }

    private mutating func index(_ node: LayoutNode, path: [Int], clip: Rect, inside outer: String?) {
        var outer = outer
        if let content = node.scrolling?.content {
            let identifier = content.scrollIdentifier
            if places[identifier] != nil || outer != nil { ambiguous.insert(identifier) }
            if let outer { ambiguous.insert(outer) }
            places[identifier] = Place(path: path, visibleFrame: node.frame.intersection(clip))
            outer = identifier
        }
        let childClip = node.clipsChildren ? clip.intersection(node.frame) : clip
        for (position, child) in node.children.enumerated() {
            index(child, path: path + [position], clip: childClip, inside: outer)
        }
    }

    /// Whether each of `identifiers` scrolls one node of its own here, not
    /// inside another scrolling node: what ``relayout(_:in:_:)`` can do.
    public func canRelayout(_ identifiers: Set<String>) -> Bool {
        identifiers.isDisjoint(with: ambiguous) && identifiers.allSatisfy { places[$0] != nil }
    }

    /// Lays out again, with `context`, the nodes that scroll by `identifiers`
    /// (``canRelayout(_:)`` must hold) and puts them in `tree` in place of the
    /// old ones. Each keeps its frame and place, so the index stays right.
    ///
    /// - Returns: The rects to redraw: the nodes' visible frames.
    public func relayout(_ identifiers: Set<String>, in tree: inout LayoutNode, _ context: LayoutContext) -> [Rect] {
        precondition(canRelayout(identifiers), "no node of its own scrolls by one of \(identifiers)")
        var damage: [Rect] = []
        for identifier in identifiers {
            guard let place = places[identifier] else { continue }
            tree.modifyNode(at: place.path[...]) { node in
                if let content = node.scrolling?.content { node = content.relayout(context) }
            }
            if !place.visibleFrame.isEmpty { damage.append(place.visibleFrame) }
        }
        return damage
    }
}
