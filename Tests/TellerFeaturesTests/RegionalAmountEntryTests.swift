import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

/// The amount keypad, the IBANs and the receipt in another language,
/// through the view models themselves. Each test speaks its language only
/// in its own task (``Localization/with(_:catalog:_:)``): the other suites
/// in this process run in parallel and expect English.
@MainActor
@Suite struct RegionalAmountEntryTests {
    static let german = RegionalFormat(language: .german, currencyDisplay: .symbol)
    static let arabicNative = RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native)

    @Test func germanAmountShowsTheCommaWhileTheValueIsUnchanged() async {
        await Localization.with(Self.german) {
            let typed = await typeAmount("1248025")
            #expect(typed.text == "12.480,25 €")
            #expect(typed.amount == Money(minorUnits: 1_248_025, currency: .eur))
        }
    }

    @Test func arabicAmountShowsTheArabicDecimalSeparatorWithNativeDigits() async {
        await Localization.with(Self.arabicNative) {
            let typed = await typeAmount("1248025")
            #expect(typed.text == "\u{2066}١٢٬٤٨٠٫٢٥ €\u{2069}")
            #expect(typed.amount == Money(minorUnits: 1_248_025, currency: .eur))
        }
    }

    @Test func ibanStaysLatinInArabicWithNativeDigits() async {
        await Localization.with(Self.arabicNative) {
            let lines = await accountLines()
            let isolated = "\u{2066}DE54 5001 0517 0426 3971 58\u{2069}"
            #expect(lines.account == isolated)
            #expect(lines.amountEntryAccount == isolated)
            #expect(lines.recipientField == "\u{2066}DE89 3704\u{2069}")
        }
    }

    @Test func receiptNumberStaysLatinWhileTheAmountIsArabic() async throws {
        try await Localization.with(Self.arabicNative) {
            let receipt = await depositReceipt("5000")
            let number = try #require(receipt.first { $0.label == "Receipt" }?.value)
            #expect(number.unicodeScalars.first == "\u{2066}" && number.unicodeScalars.last == "\u{2069}")
            #expect(number.unicodeScalars.dropFirst().dropLast().allSatisfy { $0.isASCII }, "\(number) has native digits")
            #expect(receipt.first { $0.label == "Amount" }?.value == "\u{2066}٥٠٫٠٠ €\u{2069}")
        }
        #expect(Localization.format == .standard, "the language did not leak out of the test")
    }
}

/// Types `digits` on a deposit's amount keypad; returns what the field shows
/// and the amount it holds.
@MainActor
private func typeAmount(_ digits: String) async -> (text: String, amount: Money?) {
    let model = await amountEntry(.deposit).model
    for digit in digits { model?.press(digit: digit) }
    return (model?.amountText ?? "no amount screen", model?.amount)
}

/// The account's IBAN on the account screen and the transfer screen, and a
/// recipient IBAN half typed.
@MainActor
private func accountLines() async -> (account: String, amountEntryAccount: String, recipientField: String) {
    let (_, ibanText, model) = await amountEntry(.transfer)
    model?.focus(.recipient)
    for character in "DE893704" { model?.type(character) }
    return (ibanText ?? "no account screen", model?.accountText ?? "no amount screen", model?.recipientFieldText ?? "no amount screen")
}

/// The receipt lines of a deposit of `digits` typed on the keypad.
@MainActor
private func depositReceipt(_ digits: String) async -> [ReviewViewModel.Line] {
    let (h, _, model) = await amountEntry(.deposit)
    for digit in digits { model?.press(digit: digit) }
    await model?.reviewTransaction()
    await h.coordinator.current.review?.confirm()
    return h.coordinator.current.receipt?.lines ?? []
}

/// Signs in, opens the harness's account and its amount screen for `kind`.
@MainActor
private func amountEntry(_ kind: TransactionKind) async -> (harness: FeatureHarness, accountIBANText: String?, model: AmountEntryViewModel?) {
    let h = FeatureHarness()
    let account = FeatureHarness.account
    await h.signIn()
    await h.accounts.set(cached: nil, fresh: h.snapshot(account, asOf: h.clock.now()), for: account)
    h.coordinator.push(.account(account))
    await h.coordinator.settle()
    let ibanText = h.coordinator.current.account?.ibanText
    h.coordinator.push(.amount(account, kind))
    await h.coordinator.settle()
    return (h, ibanText, h.coordinator.current.amount)
}
