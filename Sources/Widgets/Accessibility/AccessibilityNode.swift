import FoundationEssentials
import Graphics

/// The accessibility view of a laid-out node, as QA and the control socket see it.
///
/// Serialises to JSON with ``LayoutNode/accessibilityJSON(prettyPrinted:)``.
public struct AccessibilityNode: Codable, Hashable, Sendable {
    /// A frame in pixels, spelled out for JSON readers.
    public struct Frame: Codable, Hashable, Sendable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    public var role: AccessibilityRole
    public var label: String?
    public var value: String?
    public var identifier: String?
    public var frame: Frame
    public var enabled: Bool
    /// False when the node is scrolled out of view or lies off the screen:
    /// it is in the tree, but a touch cannot reach it.
    public var visible: Bool
    /// Whether the node can be tapped, focused or scrolled.
    public var interactive: Bool
    /// True when the node's text is shown cut, with an ellipsis; absent
    /// from the JSON otherwise.
    public var truncated: Bool?
    public var children: [AccessibilityNode]
}

extension LayoutNode {
    /// This node and its subtree as accessibility nodes; spacers are left out
    /// because they carry nothing a reader or test could use.
    public var accessibilityNode: AccessibilityNode { accessibilityNode(within: frame) }

    /// - Parameter clip: what of the screen its ancestors leave visible.
    private func accessibilityNode(within clip: Rect) -> AccessibilityNode {
        let childClip = clipsChildren ? clip.intersection(frame) : clip
        return AccessibilityNode(
            role: role, label: label, value: value, identifier: identifier,
            frame: .init(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height),
            enabled: isEnabled,
            visible: !frame.intersection(clip).isEmpty,
            interactive: interaction != .none && interaction != .blocker,
            truncated: isTruncated ? true : nil,
            children: allChildren.filter { $0.role != .spacer }.map { $0.accessibilityNode(within: childClip) })
    }

    /// The accessibility tree as UTF-8 JSON, keys sorted so dumps diff cleanly.
    public func accessibilityJSON(prettyPrinted: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        return String(decoding: try encoder.encode(accessibilityNode), as: UTF8.self)
    }

    /// Every interactive node (buttons, keys, fields, rows, lists), depth first.
    public var interactiveNodes: [LayoutNode] {
        var nodes: [LayoutNode] = []
        forEach { if $0.interaction != .none && $0.interaction != .blocker { nodes.append($0) } }
        return nodes
    }
}
