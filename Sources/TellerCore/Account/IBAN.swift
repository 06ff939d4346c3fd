/// An International Bank Account Number that passed its checks: known
/// country, that country's length, and ISO 7064 mod-97 check digits.
///
/// Stored in electronic form (no spaces, upper case); ``grouped`` gives the
/// paper form in groups of four.
public struct IBAN: Hashable, Sendable, Codable, CustomStringConvertible {
    public let electronic: String

    /// Normalises and validates typed or scanned text.
    ///
    /// Spaces, tabs and dashes are ignored and letters are upper-cased, so
    /// "de89 3704 0044 0532 0130 00" is accepted.
    public init(_ text: String) throws(IBANError) {
        let normalised = IBAN.normalise(text)
        try IBAN.validate(normalised)
        electronic = normalised
    }

    public var countryCode: String { String(electronic.prefix(2)) }
    public var checkDigits: String { String(electronic.dropFirst(2).prefix(2)) }

    /// Groups of four separated by spaces: "DE89 3704 0044 0532 0130 00".
    public var grouped: String {
        var result = ""
        for (index, character) in electronic.enumerated() {
            if index > 0 && index % 4 == 0 { result.append(" ") }
            result.append(character)
        }
        return result
    }

    public var description: String { grouped }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(electronic)
    }

    /// Removes separators and upper-cases; does not validate.
    public static func normalise(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace && $0 != "-" }.uppercased())
    }

    /// Validates an already normalised IBAN.
    static func validate(_ iban: String) throws(IBANError) {
        guard !iban.isEmpty else { throw .empty }
        for character in iban where !(character.isASCII && (character.isLetter || character.isNumber)) {
            throw .invalidCharacter(character)
        }
        guard iban.count >= 4 else { throw .tooShort }
        let country = String(iban.prefix(2))
        guard country.allSatisfy(\.isLetter) else { throw .invalidCountryCode(country) }
        guard let expected = IBAN.lengths[country] else { throw .unknownCountry(country) }
        guard iban.count == expected else { throw .wrongLength(country: country, expected: expected, actual: iban.count) }
        guard iban.dropFirst(2).prefix(2).allSatisfy(\.isNumber) else { throw .badCheckDigits }
        guard mod97(iban) == 1 else { throw .badCheckDigits }
    }

    /// ISO 7064 MOD 97-10 over the rearranged IBAN, digit by digit so no
    /// big-number arithmetic is needed.
    static func mod97(_ iban: String) -> Int {
        let rearranged = iban.dropFirst(4) + iban.prefix(4)
        var remainder = 0
        for character in rearranged {
            if let digit = character.wholeNumberValue {
                remainder = (remainder * 10 + digit) % 97
            } else if let ascii = character.asciiValue {
                let value = Int(ascii) - Int(Character("A").asciiValue!) + 10
                remainder = (remainder * 100 + value) % 97
            }
        }
        return remainder
    }

    /// IBAN lengths from the SWIFT IBAN registry: every EU/EEA country, the
    /// UK and Switzerland, and other countries a European bank commonly sees.
    static let lengths: [String: Int] = [
        // EU
        "AT": 20, "BE": 16, "BG": 22, "HR": 21, "CY": 28, "CZ": 24, "DK": 18,
        "EE": 20, "FI": 18, "FR": 27, "DE": 22, "GR": 27, "HU": 28, "IE": 22,
        "IT": 27, "LV": 21, "LT": 20, "LU": 20, "MT": 31, "NL": 18, "PL": 28,
        "PT": 25, "RO": 24, "SK": 24, "SI": 19, "ES": 24, "SE": 24,
        // EEA outside the EU, the UK, Switzerland
        "IS": 26, "LI": 21, "NO": 15, "GB": 22, "CH": 21,
        // Other registry members
        "AD": 24, "AE": 23, "AL": 28, "AZ": 28, "BA": 20, "BH": 22, "BR": 29,
        "BY": 28, "CR": 22, "DO": 28, "EG": 29, "FO": 18, "GE": 22, "GI": 23,
        "GL": 18, "GT": 28, "IL": 23, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
        "LC": 32, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MU": 30,
        "PK": 24, "PS": 29, "QA": 29, "RS": 22, "SA": 24, "SM": 27, "TN": 24,
        "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    ]
}

/// Why text is not a valid IBAN.
public enum IBANError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case invalidCharacter(Character)
    case tooShort
    case invalidCountryCode(String)
    case unknownCountry(String)
    case wrongLength(country: String, expected: Int, actual: Int)
    case badCheckDigits

    /// English for logs, `teller status` and tests, never for the
    /// operator: TellerFeatures' `ErrorText` words it from the catalog.
    public var description: String {
        switch self {
        case .empty: "Enter an IBAN."
        case .invalidCharacter(let c): "'\(c)' cannot appear in an IBAN."
        case .tooShort: "An IBAN starts with a country code and two check digits."
        case .invalidCountryCode(let code): "'\(code)' is not a country code."
        case .unknownCountry(let code): "IBANs from '\(code)' are not supported."
        case .wrongLength(let country, let expected, let actual): "A \(country) IBAN has \(expected) characters; this one has \(actual)."
        case .badCheckDigits: "The check digits do not match; check for a typing error."
        }
    }
}
