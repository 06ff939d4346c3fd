import Observation
import TellerCore

/// Find an account by IBAN, typed on the on-screen keyboard or scanned.
/// Validation runs on every key, with the reason shown.
@MainActor @Observable
public final class FindAccountViewModel {
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public private(set) var text = ""
    /// The longest IBAN (Saint Lucia) is 32 characters.
    static let maximumLength = 34

    init(navigator: any Navigator) {
        self.navigator = navigator
    }

    public var title: String { tr("Find account") }
    public var prompt: String { tr("IBAN (type or scan)") }
    public var openTitle: String { tr("Open account") }
    public var backTitle: String { tr("Back") }
    public var keyboard: KeypadText { KeypadText(name: tr("Keyboard"), enterTitle: tr("Open"), enter: openTitle) }

    /// The IBAN as typed, grouped in fours.
    public var fieldText: String { Localization.leftToRight(Self.grouped(IBAN.normalise(text))) }

    public var validation: Result<IBAN, IBANError> {
        Result { () throws(IBANError) -> IBAN in try IBAN(text) }
    }

    public var isValid: Bool { if case .success = validation { true } else { false } }

    /// The live line under the field.
    public var validationText: String { Self.validationText(validation) }

    /// The live line under an IBAN field; shared with the transfer's recipient.
    static func validationText(_ validation: Result<IBAN, IBANError>) -> String {
        switch validation {
        case .success: tr("Valid IBAN")
        case .failure(.empty): tr("Enter or scan an IBAN.")
        case .failure(.wrongLength(let country, let expected, let actual)) where actual < expected:
            tr("{country} IBAN: {missing} more characters ({expected} in all).",
               ["country": Localization.leftToRight(country), "missing": Localization.digits(String(expected - actual)),
                "expected": Localization.digits(String(expected))])
        case .failure(let error): ErrorText.text(error)
        }
    }

    public func type(_ character: Character) {
        guard character.isASCII, character.isLetter || character.isNumber, IBAN.normalise(text).count < Self.maximumLength else { return }
        text.append(Character(character.uppercased()))
    }

    public func backspace() {
        if !text.isEmpty { text.removeLast() }
    }

    public func clear() {
        text = ""
    }

    /// Opens the account when the IBAN is valid.
    public func open() {
        guard case .success(let iban) = validation else { return }
        navigator?.push(.account(iban))
    }

    /// A scanner typed a whole IBAN and pressed Enter: replace, validate, open.
    public func scanned(_ scannedText: String) {
        text = IBAN.normalise(scannedText)
        open()
    }

    public func back() { navigator?.pop() }
}

extension FindAccountViewModel: ScreenViewModel {
    public var screenName: String { "find-account" }
    public var screenKind: ScreenKind { .findAccount(self) }
}
