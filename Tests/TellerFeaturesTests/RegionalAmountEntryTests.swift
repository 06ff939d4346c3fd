import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

/// The amount keypad and the account lines in another language, through the
/// view models themselves. They read the process-wide format, and the other
/// suites in this process run in parallel and expect English, so each test
/// is an exit test: its body, `Localization.use(...)` included, runs in a
/// child process of its own and cannot race them.
@Suite(.serialized) struct RegionalAmountEntryTests {
    @Test func germanAmountShowsTheCommaWhileTheValueIsUnchanged() async {
        await #expect(processExitsWith: .success) {
            Localization.use(RegionalFormat(language: .german, currencyDisplay: .symbol))
            defer { Localization.use(.standard) }
            let typed = await typeAmount("1248025")
            #expect(typed.text == "12.480,25 €")
            #expect(typed.amount == Money(minorUnits: 1_248_025, currency: .eur))
        }
    }

    @Test func arabicAmountShowsTheArabicDecimalSeparatorWithNativeDigits() async {
        await #expect(processExitsWith: .success) {
            Localization.use(RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native))
            defer { Localization.use(.standard) }
            let typed = await typeAmount("1248025")
            #expect(typed.text == "\u{2066}١٢٬٤٨٠٫٢٥ €\u{2069}")
            #expect(typed.amount == Money(minorUnits: 1_248_025, currency: .eur))
        }
    }

    @Test func ibanStaysLatinInArabicWithNativeDigits() async {
        await #expect(processExitsWith: .success) {
            Localization.use(RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native))
            defer { Localization.use(.standard) }
            let lines = await accountLines()
            let isolated = "\u{2066}DE54 5001 0517 0426 3971 58\u{2069}"
            #expect(lines.account == isolated)
            #expect(lines.amountEntryAccount == isolated)
            #expect(lines.recipientField == "\u{2066}DE89 3704\u{2069}")
        }
    }

    @Test func receiptNumberStaysLatinWhileTheAmountIsArabic() async {
        await #expect(processExitsWith: .success) {
            Localization.use(RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native))
            defer { Localization.use(.standard) }
            let receipt = await depositReceipt("5000")
            let number = try #require(receipt.first { $0.label == "Receipt" }?.value)
            #expect(number.unicodeScalars.first == "\u{2066}" && number.unicodeScalars.last == "\u{2069}")
            #expect(number.unicodeScalars.dropFirst().dropLast().allSatisfy { $0.isASCII }, "\(number) has native digits")
            #expect(receipt.first { $0.label == "Amount" }?.value == "\u{2066}٥٠٫٠٠ €\u{2069}")
        }
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
    let (ibanText, model) = await amountEntry(.transfer)
    model?.focus(.recipient)
    for character in "DE893704" { model?.type(character) }
    return (ibanText ?? "no account screen", model?.accountText ?? "no amount screen", model?.recipientFieldText ?? "no amount screen")
}

/// The receipt lines of a deposit of `digits` typed on the keypad.
@MainActor
private func depositReceipt(_ digits: String) async -> [ReviewViewModel.Line] {
    let (_, model) = await amountEntry(.deposit)
    for digit in digits { model?.press(digit: digit) }
    await model?.reviewTransaction()
    let h = harness
    await h?.coordinator.current.review?.confirm()
    return h?.coordinator.current.receipt?.lines ?? []
}

/// The harness of the last ``amountEntry(_:)``, one per exit test's process.
@MainActor private var harness: FeatureHarness?

/// Signs in, opens the harness's account and its amount screen for `kind`.
@MainActor
private func amountEntry(_ kind: TransactionKind) async -> (accountIBANText: String?, model: AmountEntryViewModel?) {
    let h = FeatureHarness()
    harness = h
    let account = FeatureHarness.account
    await h.signIn()
    await h.accounts.set(cached: nil, fresh: h.snapshot(account, asOf: h.clock.now()), for: account)
    h.coordinator.push(.account(account))
    await h.coordinator.settle()
    let ibanText = h.coordinator.current.account?.ibanText
    h.coordinator.push(.amount(account, kind))
    await h.coordinator.settle()
    return (ibanText, h.coordinator.current.amount)
}
