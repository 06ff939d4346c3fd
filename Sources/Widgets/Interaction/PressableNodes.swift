import Graphics

/// Where the pressable controls of one laid-out tree are, so that a press
/// or a release swaps one control's paints in place and redraws only that
/// control: no new layout and no comparison of trees.
///
/// Pressing through this index gives the same tree as laying the screen
/// out again with ``InteractionState/pressed`` set (WidgetsTests check this
/// for every pressable control of the screens they build).
public struct PressableNodes: Sendable {
    /// A pressable node: its path of child indexes from the root, and the
    /// part of it on screen (cut by the scrolling ancestors).
    struct Place: Sendable {
        let path: [Int]
        let visibleFrame: Rect
    }

    /// Every node with a ``LayoutNode/press`` by identifier; layout presses
    /// all the nodes that share an identifier, and so does this.
    private var places: [String: [Place]] = [:]
    /// The control shown pressed in the indexed tree.
    public private(set) var pressed: String?

    /// Indexes `tree`, laid out with `pressed` as the control under the finger.
    public init(_ tree: LayoutNode, pressed: String?) {
        self.pressed = pressed
        index(tree, path: [], clip: tree.frame)
    }

    private mutating func index(_ node: LayoutNode, path: [Int], clip: Rect) {
        if node.press != nil, let identifier = node.identifier {
            places[identifier, default: []].append(Place(path: path, visibleFrame: node.frame.intersection(clip)))
        }
        let childClip = node.clipsChildren ? clip.intersection(node.frame) : clip
        for (position, child) in node.children.enumerated() {
            index(child, path: path + [position], clip: childClip)
        }
    }

    /// Shows `identifier` pressed in `tree` (nil: nothing pressed) and
    /// releases the control pressed before.
    /// - Returns: The rects to redraw: the visible frames of the controls
    ///   whose look changed; empty when nothing did.
    public mutating func press(_ identifier: String?, in tree: inout LayoutNode) -> [Rect] {
        guard identifier != pressed else { return [] }
        var damage: [Rect] = []
        for (name, isPressed) in [(pressed, false), (identifier, true)] {
            guard let name else { continue }
            for place in places[name] ?? [] {
                tree.modifyNode(at: place.path[...]) { node in
                    if let press = node.press { node.paints = press.paints(isPressed: isPressed) }
                }
                if !place.visibleFrame.isEmpty { damage.append(place.visibleFrame) }
            }
        }
        pressed = identifier
        return damage
    }
}

extension LayoutNode {
    /// Changes the descendant at `path` in place (no copy of the rest of the tree).
    mutating func modifyNode(at path: ArraySlice<Int>, _ body: (inout LayoutNode) -> Void) {
        guard let first = path.first else { return body(&self) }
        children[first].modifyNode(at: path.dropFirst(), body)
    }
}
