import Graphics
import TellerFeatures
import Widgets

/// Lays a ``PrintedDocument`` out on paper and draws it: black on white, as
/// wide as the printer's head and as long as the document, with the
/// screens' widgets and layout, so Arabic reads right to left and is shaped
/// exactly as on the screens, and long lines wrap rather than being cut.
///
///     let renderer = PrintedDocumentRenderer(fonts: fonts)
///     let surface = renderer.render(document, width: 576)  // 80 mm at 203 dpi
///
/// Device turns the surface into dots and ESC/POS. Not thread-safe: it
/// shares the font library's caches with whoever else draws with it.
public final class PrintedDocumentRenderer {
    public let fonts: FontLibrary

    public init(fonts: FontLibrary) { self.fonts = fonts }

    /// Dots per dp: the screens' 18 dp body text becomes 24 dots, 3 mm at
    /// 203 dpi, as large as a counter printer's own font A; an amount 27
    /// dots, a heading 35.
    public static let dotsPerDP = 4.0 / 3.0

    /// The document `width` dots wide and exactly as tall as its lines.
    public func render(_ document: PrintedDocument, width: Int) -> Surface {
        let tree = layout(document, width: width)
        let surface = Surface(size: tree.frame.size)
        Renderer(fonts: fonts).render(tree, into: surface)
        return surface
    }

    /// The laid-out tree ``render(_:width:)`` draws, for tests to look into.
    public func layout(_ document: PrintedDocument, width: Int) -> LayoutNode {
        var context = LayoutContext(scale: Scale(Self.dotsPerDP), theme: .paper, fonts: fonts)
        context.direction = document.isRightToLeft ? .rightToLeft : .leftToRight
        let body = PaperParts.body(document)
        let height = body.measure(Size(width: width, height: Int(Int32.max) / 4), context).height
        return context.layout(body, in: Size(width: width, height: max(1, height)))
    }
}

/// The widgets of a printed document, one or two per line.
enum PaperParts {
    /// A wrapped line never runs out of lines on paper, which grows.
    static let unlimitedLines = 1000

    static func body(_ document: PrintedDocument) -> any Widget {
        VStack(spacing: 6, padding: .symmetric(horizontal: 3, vertical: 6), background: .background,
               document.lines.map(widget))
    }

    static func widget(_ line: PrintedDocument.Line) -> any Widget {
        switch line {
        case .heading(let text):
            return label(text, style: .title, alignment: .center)
        case .row(let name, let value, let emphasis):
            // One line each side by side; when that does not fit, the value wraps under its label.
            return ScreenParts.labelled(label(name, style: .body, maxLines: 1), label(value, style: style(emphasis), maxLines: 1),
                                        labelLines: unlimitedLines, valueLines: unlimitedLines)
        case .text(let text, let alignment, let emphasis):
            return label(text, style: style(emphasis), alignment: textAlignment(alignment))
        case .separator:
            return Frame(height: 1.5, VStack(background: .primaryText, []))
        case .blank:
            return Frame(height: 12, Spacer())
        case .mark(let text):
            return VStack(padding: .symmetric(horizontal: 6, vertical: 3), background: .accent, [
                label(text, style: .title, color: .onAccent, alignment: .center),
            ])
        }
    }

    private static func label(_ text: String, style: TextStyle, color: ThemeColor = .primaryText,
                              alignment: TextAlignment = .leading, maxLines: Int = unlimitedLines) -> Label {
        Label(text, style: style, color: color, alignment: alignment, maxLines: maxLines, canTruncate: false)
    }

    private static func style(_ emphasis: PrintedDocument.Emphasis) -> TextStyle {
        switch emphasis {
        case .regular: .body
        case .strong: .bodyBold
        case .large: .headline
        }
    }

    private static func textAlignment(_ alignment: PrintedDocument.Alignment) -> TextAlignment {
        switch alignment {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }
}

extension Theme {
    /// Thermal paper: black on white, nothing in between (a printer's dots
    /// are black or not), and the accent black so a mark prints white on black.
    static let paper: Theme = {
        var theme = Theme.standard
        theme.name = "paper"
        theme.background = .white
        theme.surface = .white
        theme.primaryText = .black
        theme.secondaryText = .black
        theme.separator = .black
        theme.border = .black
        theme.accent = .black
        theme.onAccent = .white
        return theme
    }()
}
