import Graphics

/// Places already-broken lines of text in a frame: vertically centred,
/// horizontally aligned (leading is the right edge in a right-to-left
/// layout), dropping lines that would spill out of the frame
/// (a spilled line would be outside the node's damage rect).
struct TextLines {
    var lines: [String]
    var spec: FontSpec
    var color: Color
    var alignment: TextAlignment
    /// True when breaking the text into ``lines`` already cut some of it.
    var isCut = false

    /// Whether what ``paints(in:_:)`` draws in `frame` leaves part of the text out:
    /// cut while breaking, or lines dropped because the frame is too low.
    func isCut(in frame: Rect, _ context: LayoutContext) -> Bool {
        isCut || lines.count > max(1, frame.height / max(1, context.font(spec).lineHeight))
    }

    func paints(in frame: Rect, _ context: LayoutContext) -> [Paint] {
        let font = context.font(spec)
        let fitting = max(1, min(lines.count, frame.height / max(1, font.lineHeight)))
        let shown = lines.count > fitting
            ? Array(lines.prefix(fitting - 1)) + [font.truncated(lines[fitting - 1] + Font.ellipsis, toWidth: frame.width)]
            : lines
        let top = frame.minY + (frame.height - shown.count * font.lineHeight) / 2
        return shown.enumerated().map { index, line in
            let x = alignment.lineStart(width: font.width(of: line), in: frame, context.direction)
            let baseline = top + index * font.lineHeight + (font.lineHeight - font.ascender - font.descender) / 2 + font.ascender
            return .text(line, spec, color, baseline: Point(x: x, y: baseline))
        }
    }

    /// One line truncated with an ellipsis to `width`.
    static func single(_ text: String, style: TextStyle, color: Color, alignment: TextAlignment = .leading,
                       width: Int, _ context: LayoutContext) -> TextLines {
        let spec = context.fontSpec(style)
        let line = context.font(spec).truncated(text, toWidth: width)
        return TextLines(lines: [line], spec: spec, color: color, alignment: alignment, isCut: line != text)
    }
}
