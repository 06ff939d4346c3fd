import Graphics

/// Draws laid-out trees into surfaces.
///
/// A full frame draws every node; a damaged frame pushes one clip per dirty
/// rect and draws only the nodes that touch it, parents before children,
/// so overlapping translucent paints (a modal's scrim) compose identically
/// either way. Not thread-safe (it shares the font caches).
public final class Renderer {
    public let fonts: FontLibrary

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

    private func draw(_ node: LayoutNode, _ canvas: Canvas) {
        guard node.frame.intersects(canvas.clip) || node.frame.isEmpty && !node.children.isEmpty else { return }
        for paint in node.paints { draw(paint, canvas) }
        guard !node.children.isEmpty else { return }
        if node.clipsChildren {
            canvas.withClip(node.frame) { for child in node.children { draw(child, canvas) } }
        } else {
            for child in node.children { draw(child, canvas) }
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
