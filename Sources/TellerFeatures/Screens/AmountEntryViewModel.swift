import FoundationEssentials
import Observation
import TellerCore

/// Amount entry on a cash-register keypad (1 2 3 4 5 is 123.45), with the
/// recipient IBAN for transfers and the limits that remain.
@MainActor @Observable
public final class AmountEntryViewModel {
    /// Which field the keypad types into.
    public enum Field: Hashable, Sendable {
        case amount
        case recipient
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public let account: IBAN
    public let kind: TransactionKind
    public let currency: Currency
    public private(set) var digits = KeypadEntry(maximumLength: Money.maximumKeypadDigits)
    public private(set) var recipientText = ""
    public private(set) var focus: Field = .amount
    public private(set) var remaining: RemainingLimits?
    public private(set) var refusal: String?
    /// A digit was refused because the field was full: the amount on screen
    /// is not what was typed, so Review waits until the operator corrects it.
    public private(set) var refusedOverlongInput = false
    /// The payment Review refused over a limit a supervisor may lift: "Call supervisor" offers the approval.
    public private(set) var approvable: (request: TransactionRequest, violation: LimitViolation)?
    /// What a keyboard or scanner typed on this screen since its last Enter.
    private var keyboardLine = ""

    init(dependencies: FeatureDependencies, navigator: any Navigator, account: IBAN, kind: TransactionKind, currency: Currency) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.account = account
        self.kind = kind
        self.currency = currency
    }

    public var title: String {
        switch kind {
        case .deposit: tr("Deposit")
        case .withdrawal: tr("Withdrawal")
        case .transfer: tr("Transfer")
        }
    }

    public var accountText: String { account.displayed() }
    public var amountLabel: String { tr("Amount") }
    public var amount: Money? { try? Money(keypadDigits: digits.isEmpty ? "0" : digits.digits, currency: currency) }
    public var amountText: String { MoneyFormatting.text(amount ?? .zero(currency)) }
    public var needsRecipient: Bool { kind == .transfer }
    public var recipientLabel: String { tr("Recipient IBAN") }
    public var recipientFieldText: String { Localization.leftToRight(FindAccountViewModel.grouped(IBAN.normalise(recipientText))) }
    public var recipientValidationText: String? {
        guard needsRecipient else { return nil }
        if recipientText.isEmpty { return tr("Enter the recipient's IBAN.") }
        return FindAccountViewModel.validationText(Result { () throws(IBANError) -> IBAN in try IBAN(recipientText) })
    }
    public var continueTitle: String { tr("Review") }
    public var supervisorTitle: String { tr("Call supervisor") }
    public var backTitle: String { tr("Back") }
    public var limitsTitle: String { tr("Limits left") }
    /// The cash-register keypad for the amount.
    public var amountKeypad: KeypadText { KeypadText(name: tr("Amount keypad"), enterTitle: continueTitle) }
    /// The keyboard for the recipient's IBAN.
    public var recipientKeyboard: KeypadText { KeypadText(name: tr("Keyboard"), enterTitle: continueTitle) }

    /// The limits still open, including the offline ones while offline.
    public var limitLines: [String] {
        guard let remaining else { return [] }
        var lines = [tr("Per transaction: {amount}", ["amount": MoneyFormatting.text(remaining.perTransaction)]),
                     tr("Left today: {amount}", ["amount": MoneyFormatting.text(remaining.today)])]
        if let offline = remaining.offlinePerTransaction { lines.append(tr("Offline per transaction: {amount}", ["amount": MoneyFormatting.text(offline)])) }
        if let queue = remaining.offlineQueue { lines.append(tr("Offline queue left: {amount}", ["amount": MoneyFormatting.text(queue)])) }
        if let withdrawable = remaining.withdrawable { lines.append(tr("Withdrawable (last known, minus queued): {amount}", ["amount": MoneyFormatting.text(withdrawable)])) }
        return lines
    }

    public func load() async {
        do throws(TellerError) {
            remaining = try await dependencies.outbox.remainingLimits(kind: kind, account: account)
        } catch {
            refusal = ErrorText.text(error)
        }
    }

    public func focus(_ field: Field) {
        focus = needsRecipient ? field : .amount
    }

    public func press(digit: Character) {
        refusal = nil
        approvable = nil
        if focus == .amount {
            if !digits.append(digit), digits.digits.count >= digits.maximumLength {
                refusedOverlongInput = true
            }
            refusal = amountWarning
        } else {
            type(digit)
        }
    }

    /// What is wrong with the amount as typed so far: too many digits, or
    /// over a limit that is already known. Shown at once, under the field.
    private var amountWarning: String? {
        if refusedOverlongInput { return overlongText }
        guard let amount, amount.minorUnits > 0, let violation = remaining?.violation(for: amount) else { return nil }
        return LimitText.text(violation)
    }

    private var overlongText: String {
        let largest = try? Money(keypadDigits: String(repeating: "9", count: digits.maximumLength), currency: currency)
        return tr("At most {digits} digits ({largest}): the extra digit was not taken. Check the amount.",
                  ["digits": Localization.digits(String(digits.maximumLength)), "largest": largest.map(MoneyFormatting.text) ?? ""])
    }

    /// The "00" key of a cash register.
    public func pressDoubleZero() {
        press(digit: "0")
        press(digit: "0")
    }

    public func type(_ character: Character) {
        guard focus == .recipient, character.isASCII, character.isLetter || character.isNumber, recipientText.count < 34 else { return }
        recipientText.append(Character(character.uppercased()))
        refusal = nil
    }

    public func backspace() {
        approvable = nil
        if focus == .amount {
            digits.backspace()
            refusedOverlongInput = false
            refusal = amountWarning
        } else {
            if !recipientText.isEmpty { recipientText.removeLast() }
            refusal = nil
        }
    }

    // MARK: Hardware keyboard and scanner

    /// What Enter from a keyboard or scanner asks for.
    public enum KeyboardEnter: Hashable, Sendable {
        /// A scanned IBAN filled the recipient; the amount has the keys again.
        case scannedRecipient
        /// Check and review the transaction (``reviewTransaction()``).
        case review
    }

    /// A character from a keyboard or scanner. A letter while the amount has
    /// the focus can only be the start of an IBAN, so the recipient takes it.
    public func keyboardTyped(_ character: Character) {
        keyboardLine.append(character)
        if needsRecipient, focus == .amount, character.isASCII, character.isLetter {
            focus(.recipient)
        }
        if focus == .recipient {
            type(character)
        } else if character.isASCII, character.isNumber {
            press(digit: character)
        }
    }

    /// Tab moves between the amount and the recipient.
    public func keyboardTab() {
        if needsRecipient { focus(focus == .amount ? .recipient : .amount) }
    }

    /// Enter from a keyboard or scanner. A scanner types a whole IBAN and
    /// then Enter: that line replaces whatever was in the recipient field,
    /// and the amount comes next. Any other Enter means Review.
    public func keyboardEnter() -> KeyboardEnter {
        defer { keyboardLine = "" }
        guard needsRecipient, focus == .recipient, keyboardLine.contains(where: \.isLetter) else { return .review }
        recipientText = IBAN.normalise(keyboardLine)
        focus(.amount)
        return .scannedRecipient
    }

    /// Checks the amount, the recipient and the limits, then shows the review.
    public func reviewTransaction() async {
        guard !refusedOverlongInput else { return refuse(overlongText) }
        guard let amount, amount.minorUnits > 0 else { return refuse(tr("Enter an amount.")) }
        var recipient: IBAN?
        if needsRecipient {
            do { recipient = try IBAN(recipientText) } catch { return refuse(tr("Recipient: {problem}", ["problem": ErrorText.text(error)])) }
        }
        guard let signedIn = navigator?.signedInOperator else { return }
        await load()
        let request: TransactionRequest
        do {
            request = try TransactionRequest(kind: kind, account: account, counterparty: recipient, amount: amount, operatorID: signedIn.id)
        } catch {
            return refuse(ErrorText.text(error))
        }
        if let violation = remaining?.violation(for: amount) {
            // Only the counter limits can be approved, and only if nothing else refuses it too.
            if violation.isOverridable, remaining?.violation(for: amount, approved: true) == nil { approvable = (request, violation) }
            return refuse(LimitText.text(violation))
        }
        navigator?.push(.review(request))
    }

    /// A supervisor signs to approve the refused payment; Review follows.
    public func callSupervisor() {
        guard let approvable else { return }
        navigator?.push(.approval(.payment(approvable.request, over: approvable.violation)))
    }

    public func back() { navigator?.pop() }

    private func refuse(_ text: String) {
        refusal = text
    }
}

extension FindAccountViewModel {
    static func grouped(_ normalised: String) -> String {
        var result = ""
        for (index, character) in normalised.enumerated() {
            if index > 0 && index % 4 == 0 { result.append(" ") }
            result.append(character)
        }
        return result
    }
}

extension AmountEntryViewModel: ScreenViewModel {
    public var screenName: String { "amount" }
    public var screenKind: ScreenKind { .amountEntry(self) }
    public func appeared() async { await load() }
}
