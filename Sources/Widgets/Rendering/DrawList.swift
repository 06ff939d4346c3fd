import Graphics

/// The paints of one drawing pass over a tree in the order they are drawn,
/// each with the clip it is drawn in, and what later opaque fills cover.
///
/// A fill need not draw what a later opaque fill of the same pass overwrites
/// with values that do not depend on it (the screen's background under the
/// list, the keys and the panels); ``uncover(_:after:)`` says what is left.
/// Every pixel ends the same: a pixel inside a later cover takes its value
/// from that cover and what is drawn after it, whatever was there before.
struct DrawList {
    struct Item {
        let paint: Paint
        let clip: Rect
    }

    /// A rect that the item at `index` sets to an opaque colour.
    private struct Cover {
        let rect: Rect
        let index: Int
    }

    private(set) var items: [Item] = []
    private var covers: [Cover] = []
    /// What ``uncover(_:after:)`` left of its rect.
    private(set) var parts: [Rect] = []
    private var scratch: [Rect] = []

    /// Covers smaller than this are not worth testing against; fills smaller
    /// than ``minimumUncoveredFill`` are drawn whole.
    static let minimumCover = 1024
    static let minimumUncoveredFill = 4096

    /// Lists the paints of `tree` that touch `clip`, parents first, and the covers among them.
    mutating func build(_ tree: LayoutNode, clip: Rect) {
        items.removeAll(keepingCapacity: true)
        covers.removeAll(keepingCapacity: true)
        collect(tree, clip: clip)
    }

    private mutating func collect(_ node: LayoutNode, clip: Rect) {
        guard node.frame.intersects(clip) || node.frame.isEmpty && !node.children.isEmpty else { return }
        for paint in node.paints {
            if case .fill(let rect, let color, let radius) = paint, color.alpha == 255 {
                let opaque = Canvas.opaqueParts(ofRoundedRect: rect, radius: radius)
                addCover(opaque.band.intersection(clip))
                addCover(opaque.column.intersection(clip))
            }
            items.append(Item(paint: paint, clip: clip))
        }
        guard !node.children.isEmpty else { return }
        let inner = node.clipsChildren ? clip.intersection(node.frame) : clip
        for child in node.children { collect(child, clip: inner) }
    }

    /// Records `rect` as covered by the paint about to be listed.
    private mutating func addCover(_ rect: Rect) {
        if rect.area >= Self.minimumCover { covers.append(Cover(rect: rect, index: items.count)) }
    }

    /// Leaves in ``parts`` what of `target` no cover listed after `index`
    /// hides, and returns true; false when `target` is small or nothing
    /// hides any of it (draw it whole).
    mutating func uncover(_ target: Rect, after index: Int) -> Bool {
        guard target.area >= Self.minimumUncoveredFill else { return false }
        var hidden = false
        for cover in covers where cover.index > index && cover.rect.intersects(target) {
            if !hidden {
                parts.removeAll(keepingCapacity: true)
                parts.append(target)
                hidden = true
            }
            subtract(cover.rect)
            if parts.isEmpty { break }
        }
        return hidden
    }

    /// Replaces each rect of ``parts`` that `hole` overlaps with the up to four rects around the overlap.
    private mutating func subtract(_ hole: Rect) {
        scratch.removeAll(keepingCapacity: true)
        for part in parts {
            let overlap = part.intersection(hole)
            guard !overlap.isEmpty else {
                scratch.append(part)
                continue
            }
            if overlap.minY > part.minY {
                scratch.append(Rect(x: part.minX, y: part.minY, width: part.width, height: overlap.minY - part.minY))
            }
            if overlap.maxY < part.maxY {
                scratch.append(Rect(x: part.minX, y: overlap.maxY, width: part.width, height: part.maxY - overlap.maxY))
            }
            if overlap.minX > part.minX {
                scratch.append(Rect(x: part.minX, y: overlap.minY, width: overlap.minX - part.minX, height: overlap.height))
            }
            if overlap.maxX < part.maxX {
                scratch.append(Rect(x: overlap.maxX, y: overlap.minY, width: part.maxX - overlap.maxX, height: overlap.height))
            }
        }
        swap(&parts, &scratch)
    }
}
