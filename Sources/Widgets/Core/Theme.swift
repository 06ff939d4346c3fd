import Graphics

/// The colours of one look of the terminal; widgets name roles, never colours.
///
/// Two themes ship: ``standard`` for normal branch lighting and
/// ``highContrast`` for bright sun in field deployments and for operators
/// with low vision. Every text/background pair meets WCAG AA (4.5:1) in the
/// standard theme and AAA (7:1) in the high-contrast one; a test holds that.
public struct Theme: Hashable, Sendable {
    public var name: String
    public var background: Color
    public var surface: Color
    public var primaryText: Color
    public var secondaryText: Color
    public var separator: Color
    public var border: Color
    public var accent: Color
    public var accentPressed: Color
    public var onAccent: Color
    public var secondaryButton: Color
    public var secondaryButtonPressed: Color
    public var onSecondaryButton: Color
    public var destructive: Color
    public var destructivePressed: Color
    public var onDestructive: Color
    public var statusBar: Color
    public var onStatusBar: Color
    public var header: Color
    public var onHeader: Color
    public var key: Color
    public var keyPressed: Color
    public var onKey: Color
    public var rowPressed: Color
    public var focus: Color
    public var success: Color
    public var warning: Color
    public var danger: Color
    public var neutral: Color
    public var onBadge: Color
    public var disabled: Color
    public var onDisabled: Color
    public var scrim: Color
    /// Border thickness in dp; the high-contrast theme draws heavier outlines.
    public var borderWidth: Double

    /// The colour for a role named in a widget.
    public func color(_ role: ThemeColor) -> Color {
        switch role {
        case .background: return background
        case .surface: return surface
        case .primaryText: return primaryText
        case .secondaryText: return secondaryText
        case .accent: return accent
        case .onAccent: return onAccent
        case .statusBar: return statusBar
        case .onStatusBar: return onStatusBar
        case .header: return header
        case .onHeader: return onHeader
        case .success: return success
        case .warning: return warning
        case .danger: return danger
        }
    }
}

extension Theme {
    /// Navy on light grey: calm, legible under office lighting.
    public static let standard = Theme(
        name: "standard",
        background: Color(argb: 0xFFEE_F1F5), surface: Color(argb: 0xFFFF_FFFF),
        primaryText: Color(argb: 0xFF14_202E), secondaryText: Color(argb: 0xFF4A_5868),
        separator: Color(argb: 0xFFD5_DBE2), border: Color(argb: 0xFF8A_96A3),
        accent: Color(argb: 0xFF0B_5CAD), accentPressed: Color(argb: 0xFF08_427D), onAccent: .white,
        secondaryButton: Color(argb: 0xFFE1_E8F0), secondaryButtonPressed: Color(argb: 0xFFC3_D0DE),
        onSecondaryButton: Color(argb: 0xFF0E_2238),
        destructive: Color(argb: 0xFFB3_261E), destructivePressed: Color(argb: 0xFF85_1B15), onDestructive: .white,
        statusBar: Color(argb: 0xFF0E_2238), onStatusBar: .white,
        header: Color(argb: 0xFF17_3A5E), onHeader: .white,
        key: Color(argb: 0xFFFF_FFFF), keyPressed: Color(argb: 0xFFC9_DCF2), onKey: Color(argb: 0xFF14_202E),
        rowPressed: Color(argb: 0xFFDC_E7F3), focus: Color(argb: 0xFF0B_5CAD),
        success: Color(argb: 0xFF1B_6E30), warning: Color(argb: 0xFF8A_4B00), danger: Color(argb: 0xFFB3_261E),
        neutral: Color(argb: 0xFF4A_5868), onBadge: .white,
        disabled: Color(argb: 0xFFD9_DEE4), onDisabled: Color(argb: 0xFF55_606C),
        scrim: Color(argb: 0x9908_1420), borderWidth: 1)

    /// White and yellow on black with heavy outlines, for sunlight and low vision.
    public static let highContrast = Theme(
        name: "high-contrast",
        background: .black, surface: .black,
        primaryText: .white, secondaryText: Color(argb: 0xFFE6_E6E6),
        separator: Color(argb: 0xFFB0_B0B0), border: .white,
        accent: Color(argb: 0xFFFF_D400), accentPressed: Color(argb: 0xFFFF_F08A), onAccent: .black,
        secondaryButton: .black, secondaryButtonPressed: Color(argb: 0xFF40_4040), onSecondaryButton: .white,
        destructive: Color(argb: 0xFFFF_9E9E), destructivePressed: Color(argb: 0xFFFF_D0D0), onDestructive: .black,
        // Chrome is a very dark grey, not black, so the bar and header cards stay distinct from the page.
        statusBar: Color(argb: 0xFF24_2424), onStatusBar: .white,
        header: Color(argb: 0xFF24_2424), onHeader: Color(argb: 0xFFFF_D400),
        key: .black, keyPressed: Color(argb: 0xFF40_4040), onKey: .white,
        rowPressed: Color(argb: 0xFF40_4040), focus: Color(argb: 0xFFFF_D400),
        success: Color(argb: 0xFF7D_F29A), warning: Color(argb: 0xFFFF_D400), danger: Color(argb: 0xFFFF_9E9E),
        neutral: .white, onBadge: .black,
        disabled: Color(argb: 0xFF26_2626), onDisabled: Color(argb: 0xFFBF_BFBF),
        scrim: Color(argb: 0xCC00_0000), borderWidth: 2)
}
