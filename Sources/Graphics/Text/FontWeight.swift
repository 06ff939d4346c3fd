/// The faces the renderer uses; each maps to one font file.
public enum FontWeight: String, Hashable, Sendable, CaseIterable, Codable {
    case regular
    case bold
    /// Fixed-width digits keep amounts and account numbers aligned in columns.
    case monospaced
}
