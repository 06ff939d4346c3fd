import Testing
import TellerCore
import TellerFeatures

/// Money in each language, symbol or code, Latin or native digits. Every
/// test passes its format explicitly: the process-wide language stays
/// English for the suites running beside these.
@Suite struct LocalMoneyFormattingTests {
    static func format(_ language: Language, _ display: RegionalFormat.CurrencyDisplay, _ digits: RegionalFormat.Digits = .latin) -> RegionalFormat {
        RegionalFormat(language: language, currencyDisplay: display, digits: digits)
    }

    static func money(_ minor: Int64, _ code: String = "EUR") -> Money {
        Money(minorUnits: minor, currency: Currency(code: code)!)
    }

    static let lri = "\u{2066}", pdi = "\u{2069}", minus = "\u{2212}"

    @Test func englishCodeIsTodaysOutput() {
        let en = Self.format(.english, .code)
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: en) == "12,480.25 EUR")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: en) == "\(Self.minus)12,480.25 EUR")
        #expect(MoneyFormatting.text(Self.money(5), format: en) == "0.05 EUR")
        #expect(MoneyFormatting.text(Self.money(0), format: en) == "0.00 EUR")
        // The default is the process's format, English with codes, as before.
        #expect(MoneyFormatting.text(Self.money(1_248_025)) == "12,480.25 EUR")
    }

    @Test func englishSymbolGoesBefore() {
        let en = Self.format(.english, .symbol)
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: en) == "€12,480.25")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: en) == "\(Self.minus)€12,480.25")
        #expect(MoneyFormatting.text(Self.money(1999, "USD"), format: en) == "$19.99")
        #expect(MoneyFormatting.text(Self.money(1999, "GBP"), format: en) == "£19.99")
        #expect(MoneyFormatting.text(Self.money(1999, "CHF"), format: en) == "CHF 19.99")
        #expect(MoneyFormatting.text(Self.money(1999, "SEK"), format: en) == "19.99 SEK", "no symbol: the code, after")
    }

    @Test func germanIsExactlyTheBanksSpelling() {
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.german, .symbol)) == "12.480,25 €")
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.german, .code)) == "12.480,25 EUR")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: Self.format(.german, .symbol)) == "\(Self.minus)12.480,25 €")
        #expect(MoneyFormatting.text(Self.money(123_456_789), format: Self.format(.german, .symbol)) == "1.234.567,89 €")
        #expect(MoneyFormatting.text(Self.money(1999, "CHF"), format: Self.format(.german, .symbol)) == "19,99 CHF")
        #expect(MoneyFormatting.text(Self.money(1999, "USD"), format: Self.format(.german, .symbol)) == "19,99 $")
        // Native digits mean nothing in German: it has no digits of its own.
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.german, .symbol, .native)) == "12.480,25 €")
    }

    @Test func spanishFollowsGlibcAndGroupsFourDigits() {
        let es = Self.format(.spanish, .symbol)
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: es) == "12.480,25 €")
        // glibc's es_ES: "1.248,25 €"; CLDR's es would leave four digits ungrouped.
        #expect(MoneyFormatting.text(Self.money(124_825), format: es) == "1.248,25 €")
        #expect(MoneyFormatting.text(Self.money(99_999), format: es) == "999,99 €")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: Self.format(.spanish, .code)) == "\(Self.minus)12.480,25 EUR")
    }

    @Test func arabicIsIsolatedAndUsesItsOwnSeparatorsWithNativeDigits() {
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.arabic, .symbol, .native)) == "\(Self.lri)١٢٬٤٨٠٫٢٥ €\(Self.pdi)")
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.arabic, .code, .native)) == "\(Self.lri)١٢٬٤٨٠٫٢٥ EUR\(Self.pdi)")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: Self.format(.arabic, .symbol, .native)) == "\(Self.lri)\(Self.minus)١٢٬٤٨٠٫٢٥ €\(Self.pdi)")
        // Latin digits take glibc ar_AE's separators.
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.arabic, .symbol)) == "\(Self.lri)12,480.25 €\(Self.pdi)")
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.arabic, .code)) == "\(Self.lri)12,480.25 EUR\(Self.pdi)")
    }

    @Test func pseudoReadsLikeEnglishButMarksTheAmountAsData() {
        #expect(MoneyFormatting.text(Self.money(1_248_025), format: Self.format(.pseudo, .symbol)) == "\(Self.lri)€12,480.25\(Self.pdi)")
        #expect(MoneyFormatting.text(Self.money(-1_248_025), format: Self.format(.pseudo, .code)) == "\(Self.lri)\(Self.minus)12,480.25 EUR\(Self.pdi)")
    }

    @Test func currenciesWithoutOrWithThreeDecimals() {
        #expect(MoneyFormatting.text(Self.money(1_248_025, "JPY"), format: Self.format(.english, .symbol)) == "¥1,248,025")
        #expect(MoneyFormatting.text(Self.money(-700, "JPY"), format: Self.format(.german, .code)) == "\(Self.minus)700 JPY")
        #expect(MoneyFormatting.text(Self.money(1_248_025, "KWD"), format: Self.format(.english, .code)) == "1,248.025 KWD")
        #expect(MoneyFormatting.text(Self.money(1_248_025, "KWD"), format: Self.format(.german, .symbol)) == "1.248,025 KWD")
        #expect(MoneyFormatting.text(Self.money(5, "KWD"), format: Self.format(.arabic, .code, .native)) == "\(Self.lri)٠٫٠٠٥ KWD\(Self.pdi)")
    }

    @Test func signedKeepsItsSignInsideTheIsolate() {
        #expect(MoneyFormatting.signed(Self.money(5000), format: Self.format(.english, .code)) == "+50.00 EUR")
        #expect(MoneyFormatting.signed(Self.money(-1200), format: Self.format(.german, .symbol)) == "\(Self.minus)12,00 €")
        #expect(MoneyFormatting.signed(Self.money(0), format: Self.format(.german, .symbol)) == "0,00 €")
        #expect(MoneyFormatting.signed(Self.money(5000), format: Self.format(.arabic, .symbol, .native)) == "\(Self.lri)+٥٠٫٠٠ €\(Self.pdi)")
    }

    @Test func spokenHasNoGroupingAndSaysMinus() {
        #expect(MoneyFormatting.spoken(Self.money(123_450), format: Self.format(.english, .symbol)) == "1234.50 EUR")
        #expect(MoneyFormatting.spoken(Self.money(-1200), format: Self.format(.english, .code)) == "minus 12.00 EUR")
        #expect(MoneyFormatting.spoken(Self.money(123_450), format: Self.format(.german, .symbol)) == "1234,50 EUR")
    }
}
