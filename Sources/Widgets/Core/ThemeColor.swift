/// A colour role a widget asks for; the ``Theme`` decides the actual colour.
public enum ThemeColor: String, Hashable, Sendable, Codable {
    case background, surface, primaryText, secondaryText, accent, onAccent
    case statusBar, onStatusBar, header, onHeader, success, warning, danger
}
