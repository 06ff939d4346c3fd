import Graphics

/// An on-screen numeric pad or alphanumeric keyboard.
///
/// Every key is its own accessible element with identifier
/// `"<identifier>.<key>"` (`sign-in.pin.7`, `search.keys.backspace`);
/// ``KeypadKey/init(tapIdentifier:keypadIdentifier:)`` decodes a tap. When
/// the enter key is the screen's one primary action it may carry that
/// action's own identifier instead (`amount.review`), so scripts that tap
/// the action keep working wherever the button is drawn. The
/// keypad fills the frame it is given up to a comfortable key size and
/// centres itself; keys never get smaller than the frame allows, and the
/// screen is expected to give at least 48 dp per key.
///
/// A keypad does not mirror right to left, as the numeric pads of Android
/// and iOS do not: 1-2-3 read left to right in Arabic as everywhere, and
/// what the keys type (digits, and on the alphanumeric layout the Latin
/// letters of an IBAN or a reference) reads left to right, so the erase
/// key keeps pointing left, at the character it removes. The keypad as a
/// whole still moves where its stack puts it.
public struct Keypad: Widget {
    public var identifier: String
    public var layout: KeypadLayout
    /// The spoken name of the whole keypad ("PIN pad", "Keyboard").
    public var name: String
    /// The visible title of the enter key ("Sign in", "Review").
    public var enterTitle: String
    /// The spoken names of the editing keys.
    public var enterName: String
    public var backspaceName: String
    public var spaceName: String
    public var isEnabled: Bool
    /// The enter key's identifier when it is the screen's primary action;
    /// nil gives it `"<identifier>.enter"` like every other key.
    public var enterIdentifier: String?
    /// The enter key alone greys out while the action is not yet possible
    /// (an IBAN still incomplete); the other keys stay live.
    public var isEnterEnabled: Bool

    /// Every word comes from the caller: the view models own the strings
    /// (TellerFeatures' `KeypadText`), so the widget has none of its own.
    public init(identifier: String, layout: KeypadLayout = .numeric, name: String, enterTitle: String, enterName: String? = nil,
                backspaceName: String, spaceName: String, isEnabled: Bool = true,
                enterIdentifier: String? = nil, isEnterEnabled: Bool = true) {
        self.identifier = identifier
        self.layout = layout
        self.name = name
        self.enterTitle = enterTitle
        self.enterName = enterName ?? enterTitle
        self.backspaceName = backspaceName
        self.spaceName = spaceName
        self.isEnabled = isEnabled
        self.enterIdentifier = enterIdentifier
        self.isEnterEnabled = isEnterEnabled
    }

    /// The identifier of `key` on this keypad.
    public func identifier(of key: KeypadKey) -> String {
        if key == .enter, let enterIdentifier { return enterIdentifier }
        return identifier + "." + key.identifierSuffix
    }

    public func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { measure(available, context) }

    /// Every key at the 48 dp minimum; the keypad grows into any larger frame.
    public func measure(_ available: Size, _ context: LayoutContext) -> Size {
        let gap = context.px(gapDP)
        let rows = layout.rows.count
        let minimum = context.minimumTouchPixels
        return Size(width: layout.columns * minimum + (layout.columns - 1) * gap, height: rows * minimum + (rows - 1) * gap)
    }

    public func flexibility(_ axis: Axis) -> Double { 1 }

    public func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let gap = context.px(gapDP)
        let rows = layout.rows
        let columns = layout.columns
        let unit = min(context.px(layout == .numeric ? 120 : 96), (frame.width - (columns - 1) * gap) / columns)
        let keyHeight = min(context.px(72), (frame.height - (rows.count - 1) * gap) / rows.count)
        let totalHeight = rows.count * keyHeight + (rows.count - 1) * gap
        var y = frame.minY + (frame.height - totalHeight) / 2
        var keys: [LayoutNode] = []
        for row in rows {
            let units = row.reduce(0) { $0 + $1.units }
            let rowWidth = units * unit + (units - 1) * gap
            var x = frame.minX + (frame.width - rowWidth) / 2
            for (key, span) in row {
                let width = span * unit + (span - 1) * gap
                keys.append(layoutKey(key, in: Rect(x: x, y: y, width: width, height: keyHeight), context))
                x += width + gap
            }
            y += keyHeight + gap
        }
        return LayoutNode(frame: frame, role: .keypad, identifier: identifier,
                          label: name,
                          isEnabled: isEnabled, children: keys)
    }

    private var gapDP: Double { layout == .numeric ? 8 : 5 }

    private func layoutKey(_ key: KeypadKey, in frame: Rect, _ context: LayoutContext) -> LayoutNode {
        let theme = context.theme
        let id = identifier(of: key)
        let isEnter = key == .enter
        let isEnabled = self.isEnabled && (!isEnter || isEnterEnabled)
        let fill: (released: Color, pressed: Color) = !isEnabled ? (theme.disabled, theme.disabled)
            : isEnter ? (theme.accent, theme.accentPressed) : (theme.key, theme.keyPressed)
        let textColor = !isEnabled ? theme.onDisabled : isEnter ? theme.onAccent : theme.onKey
        let radius = context.px(8)
        var paints: [Paint] = []
        if !isEnter {
            paints.append(.stroke(frame, theme.border, radius: radius, width: max(1, context.px(theme.borderWidth))))
        }
        var spec = context.fontSpec(isEnter ? .bodyBold : .key)
        // Large text scales must still fit inside the key, not spill over its neighbours.
        spec.pixelSize = min(spec.pixelSize, frame.height * 11 / 20)
        let font = context.font(spec)
        let inset = frame.insetBy(dx: context.px(6), dy: 0)
        let full = title(of: key)
        let title = font.truncated(full, toWidth: inset.width)
        paints += TextLines(lines: [title], spec: spec, color: textColor, alignment: .center).paints(in: inset, context)
        let press = isEnabled
            ? PressAppearance(released: [.fill(frame, fill.released, radius: radius)] + paints,
                              pressed: [.fill(frame, fill.pressed, radius: radius)] + paints)
            : nil
        let pressed = isEnabled && context.state.pressed == id
        return LayoutNode(frame: frame, role: .key, identifier: id, label: accessibilityLabel(of: key),
                          isEnabled: isEnabled, interaction: .tap,
                          paints: press?.paints(isPressed: pressed) ?? [.fill(frame, fill.released, radius: radius)] + paints,
                          press: press, isTruncated: title != full)
    }

    private func title(of key: KeypadKey) -> String {
        switch key {
        case .backspace: return "\u{232B}"
        case .enter: return enterTitle
        case .space: return spaceName
        default: return key.text ?? ""
        }
    }

    private func accessibilityLabel(of key: KeypadKey) -> String {
        switch key {
        case .backspace: return backspaceName
        case .enter: return enterName
        case .space: return spaceName
        default: return key.text ?? ""
        }
    }
}
