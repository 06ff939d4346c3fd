import Foundation
import Testing
import TellerCore
import TellerFeatures
import ProcessTestSupport

/// Our own per-language table (``RegionalRules``) against glibc's locale
/// data: the C library's de_DE, es_ES and ar_AE are generated into a
/// temporary directory with `localedef`, and Python's `locale` module,
/// run as a child process with `LOCPATH` pointing there, formats the same
/// amounts. The terminal itself never reads these locales (its image has
/// none); this only proves the table.
///
/// Needs the Debian package `locales` (the sources in /usr/share/i18n).
/// In CI (`CI=true`) a missing locale fails the test; elsewhere the test is
/// skipped, and says why.
@Suite(.tags(.realProcess)) struct RegionalGlibcCrossCheckTests {
    static let localeSources = "/usr/share/i18n/locales"
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let canGenerateLocales = FileManager.default.fileExists(atPath: "\(localeSources)/de_DE")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/localedef")

    /// Minor units and exponents: EUR amounts (exponent 2) are compared
    /// whole, symbol and code; 0- and 3-decimal amounts by their number.
    static let amounts: [(units: Int64, exponent: Int)] = [
        (0, 2), (5, 2), (99, 2), (100, 2), (99_999, 2), (124_825, 2), (1_248_025, 2), (-1_248_025, 2), (-5, 2),
        (123_456_789, 2), (100_000_000_000, 2), (700, 0), (1_248_025, 0), (-1_248_025, 0), (5, 3), (1_248_025, 3), (-1_248_025, 3),
    ]
    static let counts = [0, 7, 999, 1000, 1248, 12_480, 1_234_567, -12_480]

    @Test(.enabled(if: inCI || canGenerateLocales,
                   "glibc's locale sources are missing (apt-get install locales): the cross-check with glibc did not run"))
    func germanAgreesWithGlibc() throws {
        try crossCheck(locale: "de_DE", language: .german, wholeAmounts: true)
    }

    @Test(.enabled(if: inCI || canGenerateLocales,
                   "glibc's locale sources are missing (apt-get install locales): the cross-check with glibc did not run"))
    func spanishAgreesWithGlibcIncludingFourDigitGrouping() throws {
        try crossCheck(locale: "es_ES", language: .spanish, wholeAmounts: true)
    }

    /// No glibc Arabic locale has U+066B/U+066C or native digits; with Latin
    /// digits we follow ar_AE's numbers. Its currency is the dirham, placed
    /// before the amount with three decimals, so only numbers are compared.
    @Test(.enabled(if: inCI || canGenerateLocales,
                   "glibc's locale sources are missing (apt-get install locales): the cross-check with glibc did not run"))
    func arabicWithLatinDigitsAgreesWithGlibcArAE() throws {
        try crossCheck(locale: "ar_AE", language: .arabic, wholeAmounts: false)
    }

    private func crossCheck(locale: String, language: Language, wholeAmounts: Bool) throws {
        let glibc = try GlibcLocale.generate(locale)
        defer { try? FileManager.default.removeItem(atPath: glibc.directory) }
        let answers = try glibc.format(amounts: Self.amounts, counts: Self.counts)
        let symbol = RegionalFormat(language: language, currencyDisplay: .symbol)
        let code = RegionalFormat(language: language, currencyDisplay: .code)
        for amount in Self.amounts {
            let key = "\(amount.units):\(amount.exponent)"
            let answer = try #require(answers[key], "python gave no line for \(key)")
            let currency = try #require(Currency(code: amount.exponent == 2 ? "EUR" : amount.exponent == 0 ? "JPY" : "KWD"))
            let money = Money(minorUnits: amount.units, currency: currency)
            let ours = comparable(MoneyFormatting.text(money, format: code))
            #expect(ours == answer.number + " " + currency.code, "\(locale) \(key): number")
            if wholeAmounts && amount.exponent == 2 {
                #expect(comparable(MoneyFormatting.text(money, format: symbol)) == answer.symbol, "\(locale) \(key): symbol")
                #expect(ours == answer.international, "\(locale) \(key): code")
            }
        }
        for count in Self.counts {
            #expect(comparable(code.number(count)) == answers["n:\(count)"]?.number, "\(locale) count \(count)")
        }
    }

    /// Ours without the isolate marks and with glibc's hyphen-minus for our U+2212.
    private func comparable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !Localization.isolateMarks.contains($0) }))
            .replacing("\u{2212}", with: "-")
    }
}

/// One glibc locale generated into a directory of its own.
private struct GlibcLocale {
    let name: String
    let directory: String

    struct Answer { var symbol: String; var international: String; var number: String }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `localedef -i <locale> -f UTF-8 <dir>/<locale>.UTF-8`; needs the
    /// `locales` package's sources, not root, and touches no system locale.
    static func generate(_ locale: String) throws -> GlibcLocale {
        let directory = NSTemporaryDirectory() + "teller-glibc-\(locale)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = try run("/usr/bin/localedef", ["-i", locale, "-f", "UTF-8", "\(directory)/\(locale).UTF-8"], environment: [:])
        guard FileManager.default.fileExists(atPath: "\(directory)/\(locale).UTF-8/LC_MONETARY") else {
            throw Failure(description: "localedef could not generate \(locale).UTF-8 (status \(result.status)): \(result.output) — install the Debian package 'locales'")
        }
        return GlibcLocale(name: "\(locale).UTF-8", directory: directory)
    }

    /// Python's `locale.currency` (symbol and international) and
    /// `locale.format_string` with grouping, one line per amount.
    func format(amounts: [(units: Int64, exponent: Int)], counts: [Int]) throws -> [String: Answer] {
        let script = """
            import locale, sys
            from decimal import Decimal
            locale.setlocale(locale.LC_ALL, sys.argv[1])
            for arg in sys.argv[2:]:
                kind, value = arg.split(':') if arg.startswith('n:') else ('amount', arg)
                if kind == 'n':
                    print('\\t'.join([arg, '', '', locale.format_string('%d', int(value), grouping=True)]))
                    continue
                units, exponent = map(int, arg.split(':'))
                x = float(Decimal(units).scaleb(-exponent))
                number = locale.format_string('%.' + str(exponent) + 'f', x, grouping=True)
                symbol = locale.currency(x, symbol=True, grouping=True)
                international = locale.currency(x, symbol=True, grouping=True, international=True)
                print('\\t'.join([arg, symbol, international, number]))
            """
        let arguments = ["-c", script, name] + amounts.map { "\($0.units):\($0.exponent)" } + counts.map { "n:\($0)" }
        let result = try Self.run("/usr/bin/python3", arguments, environment: ["LOCPATH": directory, "PYTHONIOENCODING": "utf-8"])
        guard result.status == 0 else { throw Failure(description: "python3 failed under \(name): \(result.output)") }
        var answers: [String: Answer] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 4 { answers[fields[0]] = Answer(symbol: fields[1], international: fields[2], number: fields[3]) }
        }
        return answers
    }

    private static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
