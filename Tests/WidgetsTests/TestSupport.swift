import Graphics
import Widgets

/// One font library for the whole test process; FreeType start-up is not free.
nonisolated(unsafe) let sharedFonts: FontLibrary = {
    do { return try FontLibrary() } catch { fatalError("\(error)") }
}()

/// A layout context for tests at the given density, text size and theme.
func makeContext(scale: Double = 1, textScale: Double = 1, theme: Theme = .standard,
                 state: InteractionState = InteractionState()) -> LayoutContext {
    LayoutContext(scale: Scale(scale), textScale: textScale, theme: theme, fonts: sharedFonts, state: state)
}
