import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import ProcessTestSupport

/// The operator's words for every TellerCore error: each case comes from the
/// catalog (``ErrorText``, ``LimitText``) and is translated in German,
/// Spanish and Arabic; TellerCore's `description` stays the developers'
/// English.
@Suite(.tags(.realProcess)) struct ErrorTextTests {
    static let eur = Currency.eur
    static func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }
    static let iban = try! IBAN("DE89370400440532013000")
    static let key = IdempotencyKey(rawValue: "3f2a9c4e-0b1d-4e8f-9a7b-5c6d7e8f9a0b")!
    static let operatorID = OperatorID("1001")!

    static let limits: [LimitViolation] = [
        .currencyNotSupported(.usd, terminal: .eur),
        .perTransaction(limit: eur(100_000)),
        .dailyTotal(limit: eur(500_000), remaining: eur(20_000)),
        .offlinePerTransaction(limit: eur(20_000)),
        .offlineQueuedTotal(limit: eur(100_000), remaining: eur(5_000)),
        .offlineQueueTooOld(maxAge: 24 * 3600),
        .noKnownBalance,
        .insufficientAvailable(withdrawable: eur(1_250)),
        .arithmetic(.overflow),
    ]
    static let signIns: [SignInError] = [
        .wrongPIN(attemptsLeft: 2), .wrongPIN(attemptsLeft: 1), .lockedOut(until: Date(timeIntervalSince1970: 1_800_000_000)),
        .unknownOperator(operatorID), .neverSeenOnline(operatorID), .operatorDisabled(operatorID), .malformedPIN,
        .unavailable(.storage(StorageFailure(kind: .failing, detail: "disk I/O error"))),
    ]
    static let tills: [TillRefusal] = [
        .alreadyOpen, .notOpen, .badCount("300 is not a denomination of EUR"), .noSuchTill(3),
        .needsApproval(overShort: eur(-1_000), tolerance: .zero(.eur)), .needsApproval(overShort: eur(1_000), tolerance: .zero(.eur)),
        .needsApproval(overShort: eur(-1_000), tolerance: eur(500)), .needsApproval(overShort: eur(1_000), tolerance: eur(500)),
    ]
    static let approvals: [ApprovalRefusal] = [
        .ownTransaction, .notSupervisor(operatorID), .notOverridable(.offlinePerTransaction(limit: eur(20_000))), .signIn(.malformedPIN),
    ]
    static let voids: [VoidRefusal] = [.sending, .stillConnecting, .sentBefore, .alreadySent(reference: "BNK-4711"), .rejected, .needsReview, .alreadyVoided]
    static let reversals: [ReversalRefusal] = [.notPosted(.queued), .notPosted(.rejected), .alreadyReversed(by: key), .isReversal]
    static let rules: [TransactionRuleError] = [
        .amountNotPositive, .missingRecipient, .recipientIsSameAccount, .unexpectedRecipient(.deposit), .unexpectedRecipient(.withdrawal),
        .unexpectedRecipient(.transfer), .approvedByOperator,
    ]
    static let money: [MoneyError] = [
        .overflow, .currencyMismatch(.eur, .usd), .emptyAmount, .tooManyDigits(maximum: 12), .notADigit("x"), .unknownCurrency("XYZ"),
    ]
    static let ibans: [IBANError] = [
        .empty, .invalidCharacter("!"), .tooShort, .invalidCountryCode("1X"), .unknownCountry("ZZ"),
        .wrongLength(country: "DE", expected: 22, actual: 21), .badCheckDigits,
    ]
    static let storage: [StorageFailure.Kind] = [.full, .readOnly, .failing, .other]

    /// Every case of every error type, as the operator reads it now.
    static func everyText() -> [(name: String, text: String)] {
        var texts: [(String, String)] = []
        texts += limits.map { ("\($0)", LimitText.text($0)) }
        texts += signIns.map { ("\($0)", ErrorText.text($0)) }
        texts += tills.map { ("\($0)", ErrorText.text($0)) }
        texts += approvals.map { ("\($0)", ErrorText.text($0)) }
        texts += voids.map { ("\($0)", ErrorText.text($0)) }
        texts += reversals.map { ("\($0)", ErrorText.text($0)) }
        texts += rules.map { ("\($0)", ErrorText.text($0)) }
        texts += money.map { ("\($0)", ErrorText.text($0)) }
        texts += ibans.map { ("\($0)", ErrorText.text($0)) }
        texts += storage.map { ("\($0)", ErrorText.text(StorageFailure(kind: $0, detail: "disk I/O error: COMMIT"))) }
        let wrapped: [TellerError] = [
            .offline, .accountNotFound(iban), .limit(.noKnownBalance), .rule(.missingRecipient), .money(.emptyAmount),
            .signIn(.malformedPIN), .noSuchEntry(key), .voidRefused(.sending), .reversalRefused(.isReversal), .till(.notOpen),
            .approval(.ownTransaction), .storage(StorageFailure(kind: .full, detail: "SQLITE_FULL")), .host("502 Bad Gateway"),
        ]
        texts += wrapped.map { ("\($0)", ErrorText.text($0)) }
        return texts
    }

    @Test func everyCaseComesFromTheCatalog() {
        Localization.with(RegionalFormat(language: .pseudo)) {
            for (name, text) in Self.everyText() {
                #expect(Localization.wordsOutsideTheCatalog(text) == nil, "\(name): \"\(text)\" did not come through the catalog")
            }
        }
    }

    static let languages: [Language] = [.german, .spanish, .arabic]

    /// Each case with the language's catalog differs from the same case
    /// without it (same language, so the same money and digits): translated.
    @Test(arguments: languages) func everyCaseIsTranslated(_ language: Language) throws {
        let catalog = try Self.catalog(language)
        let format = RegionalFormat(language: language, currencyDisplay: .symbol)
        let untranslated = Localization.with(format) { Self.everyText() }
        let translated = Localization.with(format, catalog: catalog) { Self.everyText() }
        #expect(untranslated.count == translated.count)
        for (english, local) in zip(untranslated, translated) {
            #expect(english.text != local.text, "\(language.code): \(english.name) is not translated: \"\(local.text)\"")
        }
    }

    /// The screens show the catalog's words; TellerCore's description is the
    /// developers' English, the same sentence for the log.
    @Test func theDescriptionIsEnglishWhateverTheLanguage() throws {
        let catalog = try Self.catalog(.german)
        let error = TellerError.till(.alreadyOpen)
        Localization.with(RegionalFormat(language: .german), catalog: catalog) {
            #expect(error.description == "Your till is already open.")
            #expect(ErrorText.text(error) != error.description)
        }
        #expect(ErrorText.text(error) == error.description)
        #expect(TellerError.limit(.offlinePerTransaction(limit: Self.eur(20_000))).description
                == "Over the offline per-transaction limit of 200.00 EUR.")
        #expect(ErrorText.text(.limit(.offlinePerTransaction(limit: Self.eur(20_000)))) == "Over the offline limit of 200.00 EUR per transaction.")
        // The log gets the storage's detail, the operator its words.
        let full = TellerError.storage(StorageFailure(kind: .full, detail: "SQLITE_FULL: COMMIT"))
        #expect(full.description.contains("SQLITE_FULL: COMMIT"))
        #expect(!ErrorText.text(full).contains("SQLITE"))
    }

    /// A sign-in the database stopped shows the storage's words, never its
    /// technical detail (the SQL stays in the log).
    @Test func aSignInTheDatabaseStoppedShowsNoDetail() {
        let refused = SignInError.unavailable(.storage(StorageFailure(kind: .full, detail: "SQLITE_FULL: INSERT INTO operator_failures")))
        #expect(ErrorText.text(refused)
                == "Sign-in is unavailable: Not saved: this terminal's storage is full. Nothing was charged. Call a technician.")
    }

    /// The catalog of `language`, compiled from po/ by msgfmt as tools/catalogs compiles it.
    static func catalog(_ language: Language) throws -> Catalog {
        let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("po/\(language.code).po").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("teller-error-text-\(UUID().uuidString).mo").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let msgfmt = try Process.run(URL(fileURLWithPath: "/usr/bin/msgfmt"), arguments: ["--check", "-o", output, po])
        msgfmt.waitUntilExit()
        try #require(msgfmt.terminationStatus == 0, "msgfmt refused \(po)")
        return try Catalog(path: output)
    }
}
