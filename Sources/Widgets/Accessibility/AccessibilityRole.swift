/// What a node is, for QA scripts and assistive output.
public enum AccessibilityRole: String, Hashable, Sendable, Codable {
    case screen, group, spacer, text, button, textField, list, row, alert, badge, keypad, key, scrim
}
