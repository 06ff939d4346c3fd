import Graphics

/// A one-line input that shows its value and, when focused, a caret.
///
/// The field does not edit text itself: the app receives key taps and
/// passes the new ``value`` in the next tree. Secure fields (PINs) draw one
/// dot per character and never expose the value to accessibility.
public struct TextField: Widget {
    public var identifier: String
    /// The spoken name of the field ("Operator ID").
    public var label: String
    public var value: String
    public var placeholder: String
    public var isSecure: Bool
    public var isEnabled: Bool

    public init(identifier: String, label: String, value: String, placeholder: String = "",
                isSecure: Bool = false, isEnabled: Bool = true) {
        self.identifier = identifier
        self.label = label
        self.value = value
        self.placeholder = placeholder
        self.isSecure = isSecure
        self.isEnabled = isEnabled
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let font = context.font(.body)
        let width = max(context.px(200), font.width(of: placeholder) + context.px(32), valueWidth(context))
        return Size(width: min(available.width, width), height: max(context.minimumTouchPixels, font.lineHeight + 2 * context.px(12)))
    }

    /// The touch target, and room for the whole value (an amount must not lose its last digits).
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: min(available.width, max(2 * context.minimumTouchPixels, valueWidth(context))), height: context.minimumTouchPixels)
    }

    /// The value's width with the field's insets and the caret; none for a secure field.
    private func valueWidth(_ context: LayoutContext) -> Int {
        isSecure ? 0 : context.font(.body).width(of: value) + 2 * context.px(14) + context.px(6)
    }

    /// Whether `text` has a letter of a right-to-left script (Hebrew, Arabic
    /// and their presentation forms), so that its end is on its left.
    static func readsRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (0x0590...0x08FF).contains(scalar.value) || (0xFB1D...0xFDFF).contains(scalar.value) || (0xFE70...0xFEFF).contains(scalar.value)
        }
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        let focused = context.state.focused == identifier
        let radius = context.px(6)
        let borderWidth = focused ? max(2, context.px(2)) : max(1, context.px(theme.borderWidth))
        var paints: [Paint] = [
            .fill(frame, isEnabled ? theme.surface : theme.disabled, radius: radius),
            .stroke(frame, focused ? theme.focus : theme.border, radius: radius, width: borderWidth),
        ]
        let content = frame.insetBy(dx: context.px(14), dy: context.px(8))
        let spec = context.fontSpec(.body)
        let font = context.font(spec)
        var caretX = content.minX
        var isTruncated = false
        if isSecure && !value.isEmpty {
            // Dots a little larger than a lower-case letter read clearly at arm's length.
            let dot = max(4, font.pixelSize * 3 / 10)
            let pitch = dot * 3
            for index in 0..<min(value.count, max(0, content.width / pitch)) {
                let center = Point(x: context.placed(x: content.minX + index * pitch + dot + 1, in: content), y: content.midY)
                paints.append(.circle(center: center, radius: dot, theme.primaryText))
            }
            caretX = context.placed(x: content.minX + value.count * pitch + context.px(2), in: content)
        } else {
            let empty = value.isEmpty
            let text = TextLines.single(empty ? placeholder : value, style: .body,
                                        color: empty ? theme.secondaryText : theme.primaryText,
                                        width: content.width - context.px(4), context)
            // Right to left the text starts at the right. What is typed here is mostly data that reads left
            // to right (an amount, an IBAN, an operator id), whose end, where the caret goes, is its right
            // end: it then stops short of the edge to leave the caret room. Right-to-left text ends on its left.
            let caretRight = context.direction == .rightToLeft && !empty && !Self.readsRightToLeft(value)
            let box = caretRight ? Rect(x: content.minX, y: content.minY, width: content.width - context.px(4), height: content.height) : content
            paints += text.paints(in: box, context)
            isTruncated = !empty && text.isCut(in: box, context)
            if caretRight { caretX = box.maxX + context.px(2) }
            else if !empty { caretX = context.placed(x: content.minX + font.width(of: text.lines[0]) + context.px(2), in: content) }
            else { caretX = context.placed(x: caretX, in: content) }
        }
        if focused {
            let top = content.midY - font.lineHeight / 2
            paints.append(.line(from: Point(x: min(caretX, content.maxX - 1), y: top),
                                to: Point(x: min(caretX, content.maxX - 1), y: top + font.lineHeight - 1),
                                width: max(2, context.px(2)), theme.focus))
        }
        return LayoutNode(frame: frame, role: .textField, identifier: identifier, label: label,
                          value: isSecure ? String(repeating: "\u{2022}", count: value.count) : value,
                          isEnabled: isEnabled, interaction: .focus, paints: paints, isTruncated: isTruncated)
    }
}
