import Testing
@testable import TellerCore

@Suite struct IBANTests {
    @Test(arguments: [
        "DE89370400440532013000", "GB29NWBK60161331926819", "FR1420041010050500013M02606",
        "NL91ABNA0417164300", "BE68539007547034", "NO9386011117947", "MT84MALT011000012345MTLCAST001S",
        "CH9300762011623852957", "AT611904300234573201", "ES9121000418450200051332",
    ])
    func validIBANsFromTheRegistryPass(_ text: String) throws {
        #expect(try IBAN(text).electronic == text)
    }

    @Test func typedFormIsNormalised() throws {
        let iban = try IBAN(" de89 3704-0044 0532 0130 00 ")
        #expect(iban.electronic == "DE89370400440532013000")
        #expect(iban.grouped == "DE89 3704 0044 0532 0130 00")
        #expect(iban.countryCode == "DE")
    }

    @Test func groupsOfFourHandleShortLastGroup() throws {
        #expect(try IBAN("NO9386011117947").grouped == "NO93 8601 1117 947")
    }

    @Test func badCheckDigitsAreRefused() {
        #expect(throws: IBANError.badCheckDigits) { try IBAN("DE88370400440532013000") }
        // One transposed pair in the account number.
        #expect(throws: IBANError.badCheckDigits) { try IBAN("DE89370400440532031000") }
        #expect(throws: IBANError.badCheckDigits) { try IBAN("DEXX370400440532013000") }
    }

    @Test func wrongLengthForTheCountryIsRefused() {
        #expect(throws: IBANError.wrongLength(country: "DE", expected: 22, actual: 21)) { try IBAN("DE8937040044053201300") }
        #expect(throws: IBANError.wrongLength(country: "GB", expected: 22, actual: 23)) { try IBAN("GB29NWBK601613319268190") }
    }

    @Test func everyEUAndEEACountryAndTheUKHaveALength() {
        let required = ["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "GB"]
        for country in required { #expect(IBAN.lengths[country] != nil, "missing \(country)") }
    }

    @Test func malformedInputNamesTheProblem() {
        #expect(throws: IBANError.empty) { try IBAN("   ") }
        #expect(throws: IBANError.invalidCharacter("*")) { try IBAN("DE89*70400440532013000") }
        #expect(throws: IBANError.tooShort) { try IBAN("DE8") }
        #expect(throws: IBANError.unknownCountry("ZZ")) { try IBAN("ZZ89370400440532013000") }
        #expect(throws: IBANError.invalidCountryCode("1E")) { try IBAN("1E89370400440532013000") }
        #expect(IBANError.wrongLength(country: "DE", expected: 22, actual: 21).description.contains("22"))
    }
}
