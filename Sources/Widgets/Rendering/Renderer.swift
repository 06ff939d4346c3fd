import Graphics

/// Draws laid-out trees into surfaces.
///
/// A full frame draws every node; a damaged frame pushes one clip per dirty
/// rect and draws only the nodes that touch it, parents before children,
/// so overlapping translucent paints (a modal's scrim) compose identically
/// either way. A fill leaves out what later opaque fills of the same pass
/// cover (``DrawList``): a full frame then writes each pixel about once, not
/// about twice, and every pixel ends the same. Not thread-safe (it shares
/// the font caches).
public final class Renderer {
    public let fonts: FontLibrary
    /// Kept between passes for the capacity of its arrays.
    private var drawList = DrawList()

    public init(fonts: FontLibrary) { self.fonts = fonts }

    /// Draws `tree` into `surface`.
    /// - Parameters:
    ///   - tree: The root node; it should paint its whole frame (``Screen`` does).
    ///   - surface: The target, e.g. a display's back buffer.
    ///   - damage: Only these rects are redrawn; nil redraws everything.
    public func render(_ tree: LayoutNode, into surface: Surface, damage: [Rect]? = nil) {
        let canvas = Canvas(surface: surface)
        render(tree, on: canvas, damage: damage)
    }

    /// Draws `tree` on an existing canvas, within its current clip.
    public func render(_ tree: LayoutNode, on canvas: Canvas, damage: [Rect]? = nil) {
        guard let damage else { return draw(tree, canvas) }
        for rect in damage {
            canvas.withClip(rect) { draw(tree, canvas) }
        }
    }

    /// One pass over the tree within the canvas's clip: its paints listed, then drawn.
    private func draw(_ tree: LayoutNode, _ canvas: Canvas) {
        // A local list: its arrays are then checked for exclusive access when compiled, not on every append.
        var list = DrawList()
        swap(&list, &drawList)
        defer { swap(&list, &drawList) }
        list.build(tree, clip: canvas.clip)
        for index in list.items.indices {
            let item = list.items[index]
            canvas.pushClip(item.clip)
            if case .fill(let rect, let color, let radius) = item.paint,
               list.uncover(rect.intersection(item.clip), after: index) {
                for part in list.parts { canvas.withClip(part) { canvas.fillRoundedRect(rect, radius: radius, color) } }
            } else {
                draw(item.paint, canvas)
            }
            canvas.popClip()
        }
    }

    private func draw(_ paint: Paint, _ canvas: Canvas) {
        switch paint {
        case .fill(let rect, let color, let radius):
            canvas.fillRoundedRect(rect, radius: radius, color)
        case .stroke(let rect, let color, let radius, let width):
            canvas.strokeRoundedRect(rect, radius: radius, width: width, color)
        case .text(let text, let spec, let color, let baseline):
            canvas.drawText(text, font: fonts.font(spec.weight, pixelSize: spec.pixelSize), color: color, baseline: baseline)
        case .line(let from, let to, let width, let color):
            canvas.drawLine(from: from, to: to, width: width, color)
        case .circle(let center, let radius, let color):
            canvas.fillCircle(center: center, radius: radius, color)
        }
    }
}
