import Foundation
import Testing
@testable import TellerCore
import ProcessTestSupport

/// The catalogs are read by Teller's own .mo reader, so they are tested
/// against what the real `msgfmt` writes, in both byte orders, and against
/// files that are damaged in the ways a disk or a bad build damages them.
@Suite(.tags(.realProcess)) struct CatalogTests {
    static let arabicPlural = "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"

    static let source = """
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: \(arabicPlural)\\n"

        msgid "Queue"
        msgstr "قائمة الانتظار"

        #, python-brace-format
        msgid "Hello, {name}"
        msgstr "مرحباً، {name}"

        #, python-brace-format
        msgid "{count} queued"
        msgid_plural "{count} queued"
        msgstr[0] "لا شيء في الانتظار"
        msgstr[1] "معاملة واحدة في الانتظار"
        msgstr[2] "معاملتان في الانتظار"
        msgstr[3] "{count} معاملات في الانتظار"
        msgstr[4] "{count} معاملة في الانتظار"
        msgstr[5] "{count} معاملة في الانتظار"

        msgid "Untranslated"
        msgstr ""

        """

    /// Compiles `source` with Debian's msgfmt and returns the .mo file's path.
    static func compile(_ source: String, endianness: String = "little") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("teller-catalog-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: URL(fileURLWithPath: directory + "/test.po"))
        let status = try run("/usr/bin/msgfmt", ["--check", "--endianness=\(endianness)", "-o", directory + "/test.mo", directory + "/test.po"])
        try #require(status == 0, "msgfmt refused the test catalog")
        return directory + "/test.mo"
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        var pid: pid_t = 0
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, executable, nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    @Test(arguments: ["little", "big"])
    func readsWhatMsgfmtWrites(_ endianness: String) throws {
        let catalog = try Catalog(path: try Self.compile(Self.source, endianness: endianness))
        #expect(catalog.translation("Queue", plural: nil, count: nil) == "قائمة الانتظار")
        #expect(catalog.translation("Hello, {name}", plural: nil, count: nil) == "مرحباً، {name}")
        // msgfmt leaves untranslated entries out; the English text is used.
        #expect(catalog.translation("Untranslated", plural: nil, count: nil) == nil)
        #expect(catalog.translation("Not in the catalog", plural: nil, count: nil) == nil)
        #expect(catalog.plural.count == 6)
    }

    /// Arabic has six plural forms: zero, one, two, few (3-10), many (11-99), other.
    @Test func arabicCountsTakeTheirOwnForms() throws {
        let catalog = try Catalog(path: try Self.compile(Self.source))
        let forms = [0: 0, 1: 1, 2: 2, 3: 3, 10: 3, 11: 4, 99: 4, 100: 5, 101: 5, 102: 5, 103: 3, 111: 4, 1000: 5]
        for (n, form) in forms {
            #expect(catalog.plural.index(for: n) == form, "n=\(n)")
        }
        let text = try #require(catalog.translation("{count} queued", plural: "{count} queued", count: 5))
        #expect(text == "{count} معاملات في الانتظار")
        #expect(catalog.translation("{count} queued", plural: "{count} queued", count: 2) == "معاملتان في الانتظار")
    }

    @Test func theCatalogFunctionsFillPlaceholdersAndPlurals() throws {
        let catalog = try Catalog(path: try Self.compile(Self.source))
        Localization.with(RegionalFormat(language: .arabic), catalog: catalog) {
            #expect(tr("Queue") == "قائمة الانتظار")
            #expect(tr("Hello, {name}", ["name": "Maria"]) == "مرحباً، Maria")
            #expect(trn("{count} queued", "{count} queued", count: 7) == "7 معاملات في الانتظار")
        }
        Localization.with(RegionalFormat(language: .arabic, digits: .native), catalog: catalog) {
            #expect(trn("{count} queued", "{count} queued", count: 7) == "٧ معاملات في الانتظار")
        }
        // English needs no catalog: the source text and its own plural.
        #expect(trn("{count} queued", "{count} queued", count: 1) == "1 queued")
        #expect(trn("One {count} row", "Many {count} rows", count: 3) == "Many 3 rows")
        #expect(tr("Hello, {name}", ["name": "Maria"]) == "Hello, Maria")
    }

    /// Values go in as they are: one holding a placeholder is not filled
    /// again (an account holder typed as "{count}" by a hostile host), and
    /// names the template does not know, lone braces and repeats behave.
    @Test func placeholdersAreFilledOnceAndValuesAreNeverRead() {
        #expect(trn("{name}: {count} row", "{name}: {count} rows", count: 3, ["name": "{count}"]) == "{count}: 3 rows")
        #expect(tr("{a} and {b}", ["a": "{b}", "b": "B"]) == "{b} and B")
        #expect(tr("{a}{a} {unknown} { {a", ["a": "x"]) == "xx {unknown} { {a")
        #expect(tr("}{a}{", ["a": "é"]) == "}é{")
        #expect(tr("no braces", ["a": "x"]) == "no braces")
        #expect(tr("{}", ["": "empty"]) == "empty")
    }

    /// A test's language is its own: another task in the process still speaks English.
    @Test func aScopedLanguageDoesNotLeak() async throws {
        let catalog = try Catalog(path: try Self.compile(Self.source))
        await Localization.with(RegionalFormat(language: .arabic), catalog: catalog) {
            #expect(tr("Queue") == "قائمة الانتظار")
            let elsewhere = await Task.detached { tr("Queue") }.value
            #expect(elsewhere == "Queue")
        }
        #expect(Localization.language == .english)
    }

    @Test func pseudoLengthensAccentsAndBrackets() {
        Localization.with(RegionalFormat(language: .pseudo)) {
            let text = tr("Review deposit")
            #expect(text.hasPrefix("[") && text.hasSuffix("]"))
            #expect(text.contains("Ŕéṽîéŵ"))
            // About 40 % longer than the source.
            #expect(Double(text.count) >= Double("Review deposit".count) * 1.35, "\(text)")
            // Placeholders survive to be filled.
            #expect(tr("Hello, {name}", ["name": "Maria"]).contains("Maria"))
            #expect(Localization.leftToRight("DE89") == "\u{2066}DE89\u{2069}")
        }
        #expect(Localization.leftToRight("DE89") == "DE89")
    }

    /// Each damaged file is refused with its path and the reason; none crashes.
    @Test func damagedCatalogsAreRefusedByName() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: try Self.compile(Self.source)))
        var badMagic = good
        badMagic[0] = 0
        var pastTheEnd = good
        // The first original string's offset, pointed far past the end.
        let table = Int(good[12]) | Int(good[13]) << 8
        pastTheEnd[table + 4] = 0xFF
        pastTheEnd[table + 5] = 0xFF
        pastTheEnd[table + 6] = 0xFF
        var hugeCount = good
        hugeCount[8] = 0xFF
        hugeCount[9] = 0xFF
        hugeCount[10] = 0xFF
        hugeCount[11] = 0x0F
        let cases: [(String, Data, String)] = [
            ("empty", Data(), "shorter than the 28-byte header"),
            ("bad magic", badMagic, "magic number"),
            ("truncated", good.prefix(good.count / 2), "past the end"),
            ("string past the end", pastTheEnd, "past the end"),
            ("huge count", hugeCount, "cannot fit"),
        ]
        for (name, bytes, reason) in cases {
            #expect(throws: CatalogError.self, "\(name)") {
                try Catalog(bytes: bytes, path: "/x/\(name).mo")
            }
            do {
                _ = try Catalog(bytes: bytes, path: "/x/\(name).mo")
            } catch {
                #expect(error.description.contains("/x/\(name).mo") && error.description.contains(reason), "\(name): \(error)")
            }
        }
        #expect(throws: CatalogError.self) { try Catalog(path: "/nonexistent/teller.mo") }
    }

    /// English and pseudo need no catalog, so no file is read for them;
    /// every other language reads gettext's layout and names a missing file.
    @Test func loadReadsTheLanguagesCatalogFromGettextsLayout() throws {
        #expect(try Catalog.load(for: .english, in: "/nonexistent") == nil)
        #expect(try Catalog.load(for: .pseudo, in: "/nonexistent") == nil)
        let compiled = try Self.compile(Self.source)
        let directory = (compiled as NSString).deletingLastPathComponent + "/locale"
        try FileManager.default.createDirectory(atPath: directory + "/ar/LC_MESSAGES", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: compiled, toPath: directory + "/ar/LC_MESSAGES/teller.mo")
        let arabic = try #require(try Catalog.load(for: .arabic, in: directory))
        #expect(arabic.path == directory + "/ar/LC_MESSAGES/teller.mo")
        #expect(arabic.translation("Queue", plural: nil, count: nil) == "قائمة الانتظار")
        let load = Result<Catalog?, CatalogError> { () throws(CatalogError) in try Catalog.load(for: .german, in: directory) }
        let missing = try #require(load.failure)
        #expect(missing.description.contains(directory + "/de/LC_MESSAGES/teller.mo"), "\(missing)")
    }

    @Test(arguments: [
        ("nplurals=2; plural=n >", "ends early"),
        ("nplurals=7; plural=n%7;", "nplurals must be 1 to 6"),
        ("nplurals=2; plural=n;", "chooses form 2"),
        ("nplurals=2; plural=(n != 1;", "without ')'"),
        ("nplurals=2; plural=n ? 1;", "without ':'"),
        ("nplurals=2;", "no plural="),
        ("nplurals=2; plural=n != 1 x;", "unexpected"),
    ])
    func badPluralFormsAreRefusedWithTheReason(_ header: String, _ reason: String) {
        do {
            _ = try PluralRule(header: header)
            Issue.record("'\(header)' was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(header): \(error)")
        }
    }

    @Test func theRulesOfGermanSpanishAndArabicParse() throws {
        let germanic = try PluralRule(header: "nplurals=2; plural=(n != 1);")
        #expect([0, 1, 2, 5].map(germanic.index(for:)) == [1, 0, 1, 1])
        let arabic = try PluralRule(header: Self.arabicPlural)
        #expect([0, 1, 2, 7, 50, 200].map(arabic.index(for:)) == [0, 1, 2, 3, 4, 5])
    }
}
