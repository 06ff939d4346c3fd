import Testing
@testable import TellerCore

@Suite struct MoneyTests {
    let eur = Currency.eur

    @Test func currencyExponentsFollowISO4217() throws {
        #expect(Currency(code: "eur")?.exponent == 2)
        #expect(Currency(code: "JPY")?.exponent == 0)
        #expect(Currency(code: "KWD")?.exponent == 3)
        #expect(Currency(code: "XYZ") == nil)
        #expect(Currency(code: "") == nil)
    }

    @Test func keypadDigitsFillFromTheRight() throws {
        #expect(try Money(keypadDigits: "12345", currency: eur) == Money(minorUnits: 12345, currency: eur))
        #expect(try Money(keypadDigits: "12345", currency: eur).decimalString == "123.45")
        #expect(try Money(keypadDigits: "5", currency: eur).decimalString == "0.05")
        #expect(try Money(keypadDigits: "700", currency: Currency(code: "JPY")!).decimalString == "700")
        #expect(try Money(keypadDigits: "1234", currency: Currency(code: "KWD")!).decimalString == "1.234")
    }

    @Test func emptyKeypadInputIsRefused() {
        #expect(throws: MoneyError.emptyAmount) { try Money(keypadDigits: "", currency: eur) }
    }

    @Test func oversizedKeypadInputIsRefused() throws {
        let twelve = String(repeating: "9", count: 12)
        #expect(try Money(keypadDigits: twelve, currency: eur).minorUnits == 999_999_999_999)
        #expect(throws: MoneyError.tooManyDigits(maximum: 12)) { try Money(keypadDigits: twelve + "9", currency: eur) }
        // Leading zeros are not significant digits.
        #expect(try Money(keypadDigits: "000" + twelve, currency: eur).minorUnits == 999_999_999_999)
        #expect(throws: MoneyError.tooManyDigits(maximum: 12)) { try Money(keypadDigits: String(repeating: "1", count: 40), currency: eur) }
    }

    @Test func nonDigitKeypadInputIsRefused() {
        #expect(throws: MoneyError.notADigit(".")) { try Money(keypadDigits: "12.5", currency: eur) }
        #expect(throws: MoneyError.notADigit("٣")) { try Money(keypadDigits: "1٣", currency: eur) }
    }

    @Test func arithmeticIsOverflowChecked() throws {
        let max = Money(minorUnits: .max, currency: eur)
        let one = Money(minorUnits: 1, currency: eur)
        #expect(throws: MoneyError.overflow) { try max.adding(one) }
        #expect(throws: MoneyError.overflow) { try Money(minorUnits: .min, currency: eur).subtracting(one) }
        #expect(throws: MoneyError.overflow) { try Money(minorUnits: .min, currency: eur).negated() }
        #expect(try max.subtracting(one).minorUnits == .max - 1)
    }

    @Test func currenciesDoNotMix() {
        let euro = Money(minorUnits: 100, currency: eur)
        let pound = Money(minorUnits: 100, currency: .gbp)
        #expect(throws: MoneyError.currencyMismatch(.eur, .gbp)) { try euro.adding(pound) }
        #expect(throws: MoneyError.currencyMismatch(.eur, .gbp)) { try euro.compare(pound) }
        #expect(throws: MoneyError.currencyMismatch(.eur, .gbp)) { try Money.sum([euro, pound], currency: .eur) }
    }

    @Test func decimalStringKeepsSignAndPadding() {
        #expect(Money(minorUnits: -5, currency: eur).decimalString == "-0.05")
        #expect(Money(minorUnits: 100_000, currency: eur).decimalString == "1000.00")
        #expect(Money(minorUnits: .min, currency: eur).decimalString == "-92233720368547758.08")
    }
}
