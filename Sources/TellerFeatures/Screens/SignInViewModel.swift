import FoundationEssentials
import TellerCore

/// Sign in: operator id, then PIN, on a numeric keypad.
@MainActor
public final class SignInViewModel {
    public enum Step: Hashable, Sendable {
        case operatorID
        case pin
    }

    public enum State: Hashable, Sendable {
        case entering
        case verifying
        case failed(String)
        case lockedOut(String)
    }

    private let dependencies: FeatureDependencies
    private weak var navigator: (any Navigator)?
    public private(set) var step: Step = .operatorID
    public private(set) var state: State = .entering
    public private(set) var operatorEntry = KeypadEntry(maximumLength: 8)
    public private(set) var pinEntry = KeypadEntry(maximumLength: 8)

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { tr("Sign in") }
    public var prompt: String { step == .operatorID ? tr("Operator ID") : tr("PIN for operator {id}", ["id": Localization.leftToRight(operatorEntry.digits)]) }
    public var fieldText: String { step == .operatorID ? operatorEntry.digits : pinEntry.masked }
    public var fieldAccessibilityValue: String {
        step == .operatorID ? operatorEntry.digits : trn("{count} digit entered", "{count} digits entered", count: pinEntry.digits.count)
    }
    public var enterTitle: String { step == .operatorID ? tr("Next") : tr("Sign in") }
    public var canGoBack: Bool { step == .pin }
    public var backTitle: String { tr("Back") }
    public var instructions: String { tr("Sign in with your operator ID and PIN.") }
    public var operatorLabel: String { tr("Operator ID") }
    public var pinLabel: String { tr("PIN") }
    public var operatorFieldText: String { operatorEntry.digits }
    /// One dot per digit; the digits themselves never leave this model.
    public var pinFieldText: String { pinEntry.masked }
    public var keypad: KeypadText { KeypadText(name: tr("Number pad"), enterTitle: enterTitle) }

    /// Shown while the host is unreachable.
    public var offlineNote: String? {
        guard navigator?.isOnline == false else { return nil }
        return tr("Offline: only operators who have signed in on this terminal before can sign in.")
    }

    public var message: String? {
        switch state {
        case .entering: nil
        case .verifying: tr("Checking…")
        case .failed(let text), .lockedOut(let text): text
        }
    }

    public var isError: Bool {
        switch state {
        case .failed, .lockedOut: true
        default: false
        }
    }

    public func press(digit: Character) {
        guard state != .verifying else { return }
        if step == .operatorID { operatorEntry.append(digit) } else { pinEntry.append(digit) }
        if case .failed = state { state = .entering }
        navigator?.invalidate()
    }

    public func backspace() {
        if step == .operatorID { operatorEntry.backspace() } else { pinEntry.backspace() }
        navigator?.invalidate()
    }

    public func back() {
        pinEntry.clear()
        step = .operatorID
        state = .entering
        navigator?.invalidate()
    }

    /// Next (after the id) or sign in (after the PIN).
    public func enter() async {
        switch step {
        case .operatorID:
            guard OperatorID(operatorEntry.digits) != nil else {
                state = .failed(tr("An operator ID is 4 to 8 digits."))
                navigator?.invalidate()
                return
            }
            step = .pin
            state = .entering
            navigator?.invalidate()
        case .pin:
            guard let id = OperatorID(operatorEntry.digits) else { return back() }
            state = .verifying
            navigator?.invalidate()
            do throws(SignInError) {
                let (signedIn, mode) = try await dependencies.session.signIn(id, pin: pinEntry.digits)
                pinEntry.clear()
                operatorEntry.clear()
                step = .operatorID
                state = .entering
                navigator?.signedIn(signedIn, mode: mode)
            } catch {
                pinEntry.clear()
                state = Self.state(for: error, time: dependencies.time, now: dependencies.clock.now())
                navigator?.invalidate()
            }
        }
    }

    static func state(for error: SignInError, time: TimeFormatting, now: Date) -> State {
        switch error {
        case .lockedOut(let until): .lockedOut(tr("Too many wrong PINs. Try again at {time}.", ["time": time.clock(until)]))
        default: .failed(error.description)
        }
    }
}

extension SignInViewModel: ScreenViewModel {
    public var screenName: String { "sign-in" }
}
