import Graphics

/// A tappable button that reports its ``identifier`` when tapped.
///
/// Never smaller than the 48 dp touch target; shows a pressed colour while
/// ``InteractionState/pressed`` names it.
public struct Button: Widget, Hashable {
    public var title: String
    public var identifier: String
    public var accessibilityLabel: String?
    public var style: ButtonStyle
    public var isEnabled: Bool

    /// - Parameters:
    ///   - title: The visible text.
    ///   - identifier: The id the app receives on tap and QA searches for.
    ///   - accessibilityLabel: The spoken name, when it should differ from the title.
    ///   - style: Prominence.
    ///   - isEnabled: Disabled buttons draw greyed out and ignore taps.
    public init(_ title: String, identifier: String, accessibilityLabel: String? = nil,
                style: ButtonStyle = .primary, isEnabled: Bool = true) {
        self.title = title
        self.identifier = identifier
        self.accessibilityLabel = accessibilityLabel
        self.style = style
        self.isEnabled = isEnabled
    }

    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let font = context.font(.bodyBold)
        let minimum = context.minimumTouchPixels
        return Size(width: max(minimum, font.width(of: title) + 2 * context.px(20)),
                    height: max(minimum, font.lineHeight + 2 * context.px(10)))
    }

    /// The touch target; the title truncates rather than the button shrinking further.
    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        Size(width: context.minimumTouchPixels, height: context.minimumTouchPixels)
    }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        let fill: (released: Color, pressed: Color), text: Color
        switch (isEnabled, style) {
        case (false, _): (fill, text) = ((theme.disabled, theme.disabled), theme.onDisabled)
        case (true, .primary): (fill, text) = ((theme.accent, theme.accentPressed), theme.onAccent)
        case (true, .secondary): (fill, text) = ((theme.secondaryButton, theme.secondaryButtonPressed), theme.onSecondaryButton)
        case (true, .destructive): (fill, text) = ((theme.destructive, theme.destructivePressed), theme.onDestructive)
        }
        let radius = context.px(8)
        var rest: [Paint] = []
        if style == .secondary || !isEnabled {
            rest.append(.stroke(frame, theme.border, radius: radius, width: max(1, context.px(theme.borderWidth))))
        }
        let inset = frame.insetBy(dx: context.px(12), dy: 0)
        let lines = TextLines.single(title, style: .bodyBold, color: text, alignment: .center, width: inset.width, context)
        rest += lines.paints(in: inset, context)
        let press = isEnabled
            ? PressAppearance(released: [.fill(frame, fill.released, radius: radius)] + rest,
                              pressed: [.fill(frame, fill.pressed, radius: radius)] + rest)
            : nil
        let pressed = isEnabled && context.state.pressed == identifier
        return LayoutNode(frame: frame, role: .button, identifier: identifier, label: accessibilityLabel ?? title,
                          isEnabled: isEnabled, interaction: .tap,
                          paints: press?.paints(isPressed: pressed) ?? [.fill(frame, fill.released, radius: radius)] + rest,
                          press: press, isTruncated: lines.isCut(in: inset, context))
    }
}
