import Testing
import TellerCore

/// The per-language table: separators, grouping and digits, read through an
/// explicit ``RegionalFormat`` so no test switches the process-wide language
/// (other suites run in parallel in this process and expect English).
@Suite struct RegionalRulesTests {
    static let english = RegionalFormat.standard
    static let german = RegionalFormat(language: .german)
    static let spanish = RegionalFormat(language: .spanish)
    static let arabicLatin = RegionalFormat(language: .arabic, digits: .latin)
    static let arabicNative = RegionalFormat(language: .arabic, digits: .native)

    @Test func separatorsPerLanguage() {
        #expect(Self.english.rules.groupingSeparator == "," && Self.english.rules.decimalSeparator == ".")
        #expect(Self.german.rules.groupingSeparator == "." && Self.german.rules.decimalSeparator == ",")
        #expect(Self.spanish.rules.groupingSeparator == "." && Self.spanish.rules.decimalSeparator == ",")
        #expect(Self.arabicLatin.rules.groupingSeparator == "," && Self.arabicLatin.rules.decimalSeparator == ".")
        #expect(Self.arabicNative.rules.groupingSeparator == "\u{066C}" && Self.arabicNative.rules.decimalSeparator == "\u{066B}")
    }

    @Test func numbersAreGroupedInThreesWithTheLanguagesSeparator() {
        #expect(Self.english.number(0) == "0")
        #expect(Self.english.number(999) == "999")
        #expect(Self.english.number(1000) == "1,000")
        #expect(Self.english.number(1_234_567) == "1,234,567")
        #expect(Self.german.number(12_480) == "12.480")
        // glibc's es_ES groups four digits too; CLDR would write "1248".
        #expect(Self.spanish.number(1248) == "1.248")
        #expect(Self.arabicLatin.number(12_480) == "12,480")
        #expect(Self.arabicNative.number(12_480) == "١٢٬٤٨٠")
        #expect(Self.german.number(-12_480) == "\u{2212}12.480")
    }

    @Test func nativeDigitsOnlyWhereTheLanguageHasThem() {
        #expect(Self.arabicNative.digits("0123456789") == "٠١٢٣٤٥٦٧٨٩")
        #expect(Self.arabicLatin.digits("0123456789") == "0123456789")
        #expect(RegionalFormat(language: .german, digits: .native).digits("0123456789") == "0123456789")
    }

    @Test func onlyRightToLeftAndPseudoIsolateData() {
        #expect(Self.arabicLatin.leftToRight("12") == "\u{2066}12\u{2069}")
        #expect(RegionalFormat(language: .pseudo).leftToRight("12") == "\u{2066}12\u{2069}")
        #expect(Self.german.leftToRight("12") == "12")
        #expect(Self.english.leftToRight("") == "")
    }

    @Test func theProcessWideHelpersFollowTheStandardFormat() {
        // The suites run in English: Localization's helpers are this format's.
        #expect(Localization.digits("123") == "123")
        #expect(Localization.leftToRight("123") == "123")
    }

    @Test func currencySymbols() {
        #expect(Currency.eur.symbol == "€")
        #expect(Currency.usd.symbol == "$")
        #expect(Currency.gbp.symbol == "£")
        #expect(Currency(code: "CHF")?.symbol == "CHF")
        #expect(Currency(code: "KWD")?.symbol == nil)
        #expect(Currency(code: "CAD")?.symbol == nil, "a bare $ would be ambiguous")
    }

    @Test func ibanStaysLatinLeftToRightInGroupsOfFour() throws {
        let iban = try IBAN("DE89370400440532013000")
        #expect(iban.displayed(format: Self.english) == "DE89 3704 0044 0532 0130 00")
        #expect(iban.displayed(format: Self.german) == "DE89 3704 0044 0532 0130 00")
        // Native digits never reach an identifier: only the isolate marks are added.
        #expect(iban.displayed(format: Self.arabicNative) == "\u{2066}DE89 3704 0044 0532 0130 00\u{2069}")
        #expect(iban.grouped == "DE89 3704 0044 0532 0130 00", "the plain form for logs and host messages is unchanged")
    }
}
