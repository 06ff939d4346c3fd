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
    /// True when the node is in view but only in part: a scroll area or the
    /// screen's edge cuts it (the last row of a list half under the fold);
    /// absent from the JSON otherwise.
    public var clipped: Bool?
    /// Whether the node can be tapped, focused or scrolled.
    public var interactive: Bool
    /// True when the node's text is shown cut, with an ellipsis; absent
    /// from the JSON otherwise.
    public var truncated: Bool?
    /// On the root of a screen's tree only: the text scale it was laid out
    /// at (`text_scale`), so that QA knows which lists may scroll
    /// (``notWhole(lettingOff:)``); absent from the JSON elsewhere.
    public var textScale: Double?
    public var children: [AccessibilityNode]

    /// A part of the screen that may scroll, or be cut, by design: every
    /// node whose identifier starts with `prefix`; with `onlyAtLargeText`,
    /// only when the screen is laid out above text scale 1.0.
    public struct LetOff: Hashable, Sendable, CustomStringConvertible {
        public var prefix: String
        public var onlyAtLargeText: Bool

        public init(_ prefix: String, onlyAtLargeText: Bool = false) {
            self.prefix = prefix
            self.onlyAtLargeText = onlyAtLargeText
        }

        /// `prefix`, or `large:prefix` (a scenario's `expect-whole` spells them so).
        public init?(word: String) {
            let large = word.hasPrefix("large:")
            let prefix = large ? String(word.dropFirst(6)) : word
            guard !prefix.isEmpty, !prefix.contains(where: \.isWhitespace) else { return nil }
            self.init(prefix, onlyAtLargeText: large)
        }

        public var description: String { onlyAtLargeText ? "large:\(prefix)" : prefix }
    }

    /// What a reader or a finger cannot take in whole on this screen, as
    /// "identifier or label: why": any text cut with an ellipsis, and any
    /// control or identified element (a field, a message, a card) that is
    /// out of view or cut by the edge of its area. Nodes under `lettingOff`
    /// are spared (lists meant to scroll); the root's ``textScale`` (1.0
    /// when absent) decides the large-text ones. Empty when all is whole.
    public func notWhole(lettingOff: [LetOff] = []) -> [String] {
        let large = (textScale ?? 1) > 1
        let spared = lettingOff.filter { !$0.onlyAtLargeText || large }.map(\.prefix)
        var found: [String] = []
        func walk(_ node: AccessibilityNode) {
            if let name = node.identifier ?? node.label ?? node.value, !spared.contains(where: { name.hasPrefix($0) }) {
                if node.truncated == true { found.append("\(name): cut with an ellipsis") }
                if node.interactive || node.identifier != nil {
                    if !node.visible { found.append("\(name): out of sight") } else if node.clipped == true { found.append("\(name): cut by the edge of its area") }
                }
            }
            node.children.forEach(walk)
        }
        walk(self)
        return found
    }

    /// The tree as UTF-8 JSON, keys sorted so dumps diff cleanly.
    public func json(prettyPrinted: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

extension LayoutNode {
    /// This node and its subtree as accessibility nodes; spacers are left out
    /// because they carry nothing a reader or test could use.
    public var accessibilityNode: AccessibilityNode { accessibilityNode(within: frame) }

    /// The screen's tree with the text scale it was laid out at on its root.
    public func accessibilityNode(textScale: Double) -> AccessibilityNode {
        var root = accessibilityNode
        root.textScale = textScale
        return root
    }

    /// - Parameter clip: what of the screen its ancestors leave visible.
    private func accessibilityNode(within clip: Rect) -> AccessibilityNode {
        let childClip = clipsChildren ? clip.intersection(frame) : clip
        let inView = frame.intersection(clip)
        return AccessibilityNode(
            role: role, label: label, value: value, identifier: identifier,
            frame: .init(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height),
            enabled: isEnabled,
            visible: !inView.isEmpty,
            clipped: !inView.isEmpty && inView != frame ? true : nil,
            interactive: interaction != .none && interaction != .blocker,
            truncated: isTruncated ? true : nil, textScale: nil,
            children: allChildren.filter { $0.role != .spacer }.map { $0.accessibilityNode(within: childClip) })
    }

    /// The accessibility tree as UTF-8 JSON, keys sorted so dumps diff cleanly.
    public func accessibilityJSON(prettyPrinted: Bool = true) throws -> String {
        try accessibilityNode.json(prettyPrinted: prettyPrinted)
    }

    /// Every interactive node (buttons, keys, fields, rows, lists), depth first.
    public var interactiveNodes: [LayoutNode] {
        var nodes: [LayoutNode] = []
        forEach { if $0.interaction != .none && $0.interaction != .blocker { nodes.append($0) } }
        return nodes
    }
}
