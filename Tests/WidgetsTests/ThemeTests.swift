import Graphics
import Testing
import Widgets

@Suite struct ThemeTests {
    /// WCAG 2 relative luminance of an sRGB colour.
    static func luminance(_ color: Color) -> Double {
        func channel(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055 * 1).squareRootPow()
        }
        return 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722 * channel(color.blue)
    }

    static func contrast(_ a: Color, _ b: Color) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    static func textPairs(_ t: Theme) -> [(String, Color, Color)] {
        [
            ("text/background", t.primaryText, t.background), ("text/surface", t.primaryText, t.surface),
            ("secondary/surface", t.secondaryText, t.surface), ("secondary/background", t.secondaryText, t.background),
            ("onAccent/accent", t.onAccent, t.accent), ("onAccent/accentPressed", t.onAccent, t.accentPressed),
            ("secondaryButton", t.onSecondaryButton, t.secondaryButton),
            ("secondaryButtonPressed", t.onSecondaryButton, t.secondaryButtonPressed),
            ("destructive", t.onDestructive, t.destructive), ("destructivePressed", t.onDestructive, t.destructivePressed),
            ("statusBar", t.onStatusBar, t.statusBar), ("header", t.onHeader, t.header),
            ("key", t.onKey, t.key), ("keyPressed", t.onKey, t.keyPressed), ("rowPressed", t.primaryText, t.rowPressed),
            ("success", t.onBadge, t.success), ("warning", t.onBadge, t.warning), ("danger", t.onBadge, t.danger),
            ("neutral", t.onBadge, t.neutral), ("disabled", t.onDisabled, t.disabled),
        ]
    }

    @Test func standardThemeMeetsAA() {
        for (name, text, background) in Self.textPairs(.standard) {
            #expect(Self.contrast(text, background) >= 4.5, "\(name): \(Self.contrast(text, background))")
        }
    }

    @Test func highContrastThemeMeetsAAA() {
        for (name, text, background) in Self.textPairs(.highContrast) {
            #expect(Self.contrast(text, background) >= 7, "\(name): \(Self.contrast(text, background))")
        }
    }

    @Test func contrastFormulaMatchesKnownValues() {
        #expect(abs(Self.contrast(.black, .white) - 21) < 0.01)
        #expect(abs(Self.contrast(Color(argb: 0xFF77_7777), .white) - 4.48) < 0.02)
    }
}

private extension Double {
    /// `self` raised to 2.4, the sRGB transfer exponent.
    func squareRootPow() -> Double { pow(self, 2.4) }
}

import Foundation
