import Graphics
import Testing
import Widgets

/// The renderer leaves out what later opaque fills cover; every pixel must
/// still be what drawing every paint whole, in order, gives.
@Suite struct OcclusionTests {
    /// Every paint of `node` and its subtree drawn whole, parents first, in the clips the tree asks for.
    func drawEveryPaint(_ node: LayoutNode, _ canvas: Canvas, _ fonts: FontLibrary) {
        // A node outside the clip draws nothing; an empty one may still hold children that do.
        if node.frame.intersects(canvas.clip) || node.frame.isEmpty && !node.children.isEmpty {
            for paint in node.paints {
                switch paint {
                case .fill(let rect, let color, let radius): canvas.fillRoundedRect(rect, radius: radius, color)
                case .stroke(let rect, let color, let radius, let width):
                    canvas.strokeRoundedRect(rect, radius: radius, width: width, color)
                case .text(let text, let spec, let color, let baseline):
                    canvas.drawText(text, font: fonts.font(spec.weight, pixelSize: spec.pixelSize), color: color, baseline: baseline)
                case .line(let from, let to, let width, let color): canvas.drawLine(from: from, to: to, width: width, color)
                case .circle(let center, let radius, let color): canvas.fillCircle(center: center, radius: radius, color)
                }
            }
            if node.clipsChildren {
                canvas.withClip(node.frame) { for child in node.children { drawEveryPaint(child, canvas, fonts) } }
            } else {
                for child in node.children { drawEveryPaint(child, canvas, fonts) }
            }
        }
    }

    func firstDifference(_ a: Surface, _ b: Surface) -> String? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                return "(\(x), \(y)): \(String(a[x, y], radix: 16)) against \(String(b[x, y], radix: 16))"
            }
        }
        return nil
    }

    @Test(arguments: TellerScreens.all.indices)
    func fullFramesAndDamageMatchEveryPaintDrawnWhole(_ index: Int) throws {
        let screen = TellerScreens.all[index]
        for (size, scale) in [(Size(width: 800, height: 480), 1.0), (Size(width: 1280, height: 800), 1.5)] {
            let context = makeContext(scale: scale, state: screen.state)
            let tree = context.layout(screen.widget, in: size)
            let renderer = Renderer(fonts: context.fonts)
            let damages: [[Rect]?] = [nil, [Rect(x: 0, y: 0, width: size.width, height: size.height)],
                                      [Rect(x: 100, y: 60, width: 333, height: 250), Rect(x: size.width - 300, y: 200, width: 290, height: 270)]]
            for damage in damages {
                // A background that no paint leaves alone unnoticed: each pass starts from the same garbage.
                let rendered = Surface(size: size), reference = Surface(size: size)
                for y in 0..<size.height {
                    for x in 0..<size.width { rendered[x, y] = UInt32(truncatingIfNeeded: x &* 2654435761 ^ y &* 40503) }
                }
                reference.copy(reference.bounds, from: rendered)
                renderer.render(tree, into: rendered, damage: damage)
                let canvas = Canvas(surface: reference)
                for rect in damage ?? [reference.bounds] { canvas.withClip(rect) { drawEveryPaint(tree, canvas, context.fonts) } }
                let difference = firstDifference(rendered, reference)
                #expect(difference == nil, "\(screen.name) at \(size), damage \(String(describing: damage)): \(difference ?? "")")
            }
        }
    }
}
