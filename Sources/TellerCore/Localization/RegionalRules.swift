/// How a language writes numbers, amounts and dates: its separators, where a
/// currency symbol goes and how a date is ordered.
///
/// A small table of our own, not ICU and not the C library's locales: the
/// terminal's image has no generated locales, and ICU's data is 38 MB. The
/// table follows glibc's locale data (`de_DE`, `es_ES`, `ar_AE`), and
/// `RegionalGlibcCrossCheckTests` compares our output with glibc's where the
/// locales can be generated.
public struct RegionalRules: Hashable, Sendable {
    /// Between groups of three digits: "," in English, "." in German.
    public var groupingSeparator: String
    /// Between the whole and the fraction: "." in English, "," in German.
    public var decimalSeparator: String
    /// The symbol before the amount, as English writes "€12.50"; otherwise
    /// after it with a space, "12,50 €". ISO codes always go after.
    public var symbolBeforeAmount: Bool
    /// Between day, month and year in a numeric date ("01.12.2026"), or nil
    /// when the language keeps English's "1 Dec".
    public var dateSeparator: String?

    /// The rules for `format`: its language, and with native digits the
    /// language's own separators (Arabic's U+066C and U+066B).
    public static func of(_ format: RegionalFormat) -> RegionalRules {
        switch format.language {
        case .german:
            // glibc de_DE: thousands_sep ".", decimal_point ",", p_cs_precedes 0, d_fmt %d.%m.%Y.
            RegionalRules(groupingSeparator: ".", decimalSeparator: ",", symbolBeforeAmount: false, dateSeparator: ".")
        case .spanish:
            // glibc es_ES: the same separators, and unlike CLDR (minimum
            // grouping digits 2: "1248,25 €") it groups four-digit amounts
            // too: "1.248,25 €". We follow glibc. Dates %d/%m/%Y.
            RegionalRules(groupingSeparator: ".", decimalSeparator: ",", symbolBeforeAmount: false, dateSeparator: "/")
        case .arabic where format.digits == .native:
            // Arabic-Indic digits take the Arabic thousands (U+066C) and
            // decimal (U+066B) separators: "١٢٬٤٨٠٫٢٥ €".
            RegionalRules(groupingSeparator: "\u{066C}", decimalSeparator: "\u{066B}", symbolBeforeAmount: false, dateSeparator: "/")
        case .arabic:
            // With Latin digits, glibc's ar_AE (like ar_EG, ar_KW and the
            // other Gulf locales; ar_SA does not group at all): "," and ".".
            RegionalRules(groupingSeparator: ",", decimalSeparator: ".", symbolBeforeAmount: false, dateSeparator: "/")
        default:
            // English, and pseudo, which reads like English.
            RegionalRules(groupingSeparator: ",", decimalSeparator: ".", symbolBeforeAmount: true, dateSeparator: nil)
        }
    }

    /// `digits` (Latin 0-9 only) with a separator between groups of three:
    /// "12480" is "12,480" in English, "12.480" in German.
    public func grouped(_ digits: String) -> String {
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += groupingSeparator }
            result.append(character)
        }
        return result
    }
}

extension RegionalFormat {
    /// The separators and orders of this format's language and digits.
    public var rules: RegionalRules { RegionalRules.of(self) }

    /// `text` with its Latin digits 0-9 written in the language's own digits
    /// when this format asks for them (`digits = native`); unchanged otherwise.
    /// ``Localization/digits(_:)`` is this for the terminal's current format.
    public func digits(_ text: String) -> String {
        guard digits == .native, let zero = language.nativeZero else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard ("0"..."9").contains(scalar) else { return scalar }
            return Unicode.Scalar(zero.value + scalar.value - 0x30) ?? scalar
        }))
    }

    /// `text` as data isolated left to right in a right-to-left language and
    /// in pseudo; unchanged otherwise. ``Localization/leftToRight(_:)`` is
    /// this for the terminal's current format.
    public func leftToRight(_ text: String) -> String {
        guard language.isRightToLeft || language == .pseudo, !text.isEmpty else { return text }
        return "\u{2066}" + text + "\u{2069}"
    }

    /// A whole number as the screens show it: grouped, in this format's
    /// digits, "12,480" in English, "12.480" in German, "١٢٬٤٨٠" in Arabic
    /// with native digits. Negative numbers take U+2212. Not for account or
    /// receipt numbers, which are identifiers, not quantities.
    public func number(_ value: Int) -> String {
        let text = rules.grouped(String(value.magnitude))
        return digits(value < 0 ? "\u{2212}" + text : text)
    }
}
