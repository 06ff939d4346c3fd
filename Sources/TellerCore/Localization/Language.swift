/// A language the terminal speaks: a gettext catalog (`teller.mo`) for
/// each, except English, which is the source text itself, and `pseudo`,
/// which QA uses to find text that bypasses the catalogs.
public struct Language: Hashable, Sendable, CustomStringConvertible {
    /// The catalog's language code: "en", "de", "es", "ar" or "pseudo".
    public let code: String

    private init(_ code: String) { self.code = code }

    /// A language Teller ships, or nil.
    public init?(code: String) {
        guard let known = Language.all.first(where: { $0.code == code }) else { return nil }
        self = known
    }

    public static let english = Language("en")
    public static let german = Language("de")
    public static let spanish = Language("es")
    public static let arabic = Language("ar")
    /// Every string lengthened by about 40 %, accented and bracketed.
    public static let pseudo = Language("pseudo")

    /// In the order the technician's language switch offers them.
    public static let all: [Language] = [.english, .german, .spanish, .arabic, .pseudo]

    /// Written right to left: layouts mirror, text is ordered by the
    /// Unicode bidirectional algorithm, and numbers and IBANs stay left to right.
    public var isRightToLeft: Bool { code == "ar" }

    /// The language's own name, as the language switch shows it.
    public var nativeName: String {
        switch code {
        case "de": "Deutsch"
        case "es": "Español"
        case "ar": "العربية"
        case "pseudo": "[Þšéûðö]"
        default: "English"
        }
    }

    /// The language's own digit zero, when it has digits of its own
    /// (Arabic-Indic U+0660); nil for Latin digits.
    public var nativeZero: Unicode.Scalar? { code == "ar" ? "\u{0660}" : nil }

    public var description: String { code }
}

/// How the bank wants money and numbers shown, besides the language's own
/// separators: the currency as its symbol ("€") or its ISO code ("EUR"),
/// and Latin digits or the language's own ("١٢٣").
public struct RegionalFormat: Hashable, Sendable {
    public enum CurrencyDisplay: String, Hashable, Sendable, CaseIterable { case symbol, code }
    public enum Digits: String, Hashable, Sendable, CaseIterable { case latin, native }

    public var language: Language
    public var currencyDisplay: CurrencyDisplay
    public var digits: Digits

    public init(language: Language = .english, currencyDisplay: CurrencyDisplay = .code, digits: Digits = .latin) {
        self.language = language
        self.currencyDisplay = currencyDisplay
        self.digits = digits
    }

    /// English with ISO codes and Latin digits: "12,480.25 EUR".
    public static let standard = RegionalFormat()
}
