import Graphics
import Widgets

/// A font library of its own for each test: libraries are not thread-safe and
/// Swift Testing runs tests in parallel.
var freshFonts: FontLibrary {
    do { return try FontLibrary() } catch { fatalError("\(error)") }
}

/// A layout context for tests at the given density, text size and theme.
func makeContext(scale: Double = 1, textScale: Double = 1, theme: Theme = .standard,
                 state: InteractionState = InteractionState()) -> LayoutContext {
    LayoutContext(scale: Scale(scale), textScale: textScale, theme: theme, fonts: freshFonts, state: state)
}
