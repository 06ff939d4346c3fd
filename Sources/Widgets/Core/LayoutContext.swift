import Graphics

/// Everything layout needs besides the widgets: density, text size, colours,
/// fonts for measuring, the interaction state, and which way the screen reads.
public struct LayoutContext {
    /// dp to pixel conversion of the panel.
    public var scale: Scale
    /// The operator's text size preference, 1.0 to 2.0 (clamped).
    public var textScale: Double {
        didSet { textScale = min(2, max(1, textScale)) }
    }
    public var theme: Theme
    public var fonts: FontLibrary
    public var state: InteractionState
    /// Row heights measured so far, kept across layouts (``List``).
    public var rowHeights: RowHeightCache
    /// Right to left mirrors rows, leading padding and leading text (see
    /// ``LayoutDirection``); the runtime sets it from the terminal's language.
    /// The fonts follow: text is ordered with the same paragraph direction,
    /// so measuring and drawing agree with the mirrored layout.
    public var direction: LayoutDirection {
        didSet { fonts.paragraphDirection = direction.textDirection }
    }

    public init(scale: Scale, textScale: Double = 1, theme: Theme = .standard, fonts: FontLibrary,
                state: InteractionState = InteractionState(), rowHeights: RowHeightCache = RowHeightCache(),
                direction: LayoutDirection = .leftToRight) {
        self.scale = scale
        self.textScale = min(2, max(1, textScale))
        self.theme = theme
        self.fonts = fonts
        self.state = state
        self.rowHeights = rowHeights
        self.direction = direction
        fonts.paragraphDirection = direction.textDirection
    }

    /// The smallest side of anything a finger must hit, in dp.
    public static let minimumTouchTarget: Double = 48

    /// Pixels for a length in dp.
    public func px(_ dp: Double) -> Int { scale.pixels(dp) }

    /// The pixel size of the minimum touch target on this panel.
    public var minimumTouchPixels: Int { px(LayoutContext.minimumTouchTarget) }

    /// The font for a text style at this scale and text scale.
    public func fontSpec(_ style: TextStyle) -> FontSpec {
        FontSpec(weight: style.weight, pixelSize: max(1, Int((style.size(textScale: textScale) * scale.factor).rounded())))
    }

    /// The loaded font for a style, for measuring.
    public func font(_ style: TextStyle) -> Font { font(fontSpec(style)) }

    /// The loaded font for a spec.
    public func font(_ spec: FontSpec) -> Font { fonts.font(spec.weight, pixelSize: spec.pixelSize) }

    /// Lays out `root` to fill a display of `size` pixels.
    public func layout(_ root: any Widget, in size: Size) -> LayoutNode {
        root.layout(in: Rect(origin: .zero, size: size), self)
    }
}
