import Graphics

/// Finds what changed between two laid-out trees, as rects to redraw.
///
/// Nodes are matched by position in the tree. A subtree whose drawn hash
/// is unchanged is skipped without looking inside, so the comparison only
/// follows the paths to what changed. A node whose frame, paints or child
/// count changed dirties its old and new frame (its whole subtree is
/// redrawn there); otherwise its children are compared. Accessibility-only
/// changes (labels, identifiers) dirty nothing. Rects are clipped to their
/// scrolling ancestors and overlapping rects are merged.
public enum DamageTracker {
    /// The rects of `new` that differ from `old`; everything when `old` is nil.
    public static func damage(from old: LayoutNode?, to new: LayoutNode) -> [Rect] {
        guard let old else { return [new.frame] }
        var rects: [Rect] = []
        collect(old, new, clip: old.frame.union(new.frame), into: &rects)
        return merged(rects)
    }

    private static func collect(_ old: LayoutNode, _ new: LayoutNode, clip: Rect, into rects: inout [Rect]) {
        if old.drawnHash == new.drawnHash { return }
        if old.frame != new.frame || old.paints != new.paints || old.children.count != new.children.count
            || old.clipsChildren != new.clipsChildren {
            for rect in [old.frame, new.frame] {
                let visible = rect.intersection(clip)
                if !visible.isEmpty { rects.append(visible) }
            }
            return
        }
        let childClip = new.clipsChildren ? clip.intersection(new.frame) : clip
        for (a, b) in zip(old.children, new.children) {
            collect(a, b, clip: childClip, into: &rects)
        }
    }

    /// Unions rects that overlap until none do, so no pixel is drawn twice.
    ///
    /// Use it to add a display's stale back-buffer rect to the tree damage
    /// before rendering: `DamageTracker.merged(damage + [stale])`.
    public static func merged(_ rects: [Rect]) -> [Rect] {
        var result: [Rect] = []
        for rect in rects {
            var current = rect
            var changed = true
            while changed {
                changed = false
                if let index = result.firstIndex(where: { $0.intersects(current) || $0.contains(current) }) {
                    current = current.union(result.remove(at: index))
                    changed = true
                }
            }
            result.append(current)
        }
        return result
    }
}
