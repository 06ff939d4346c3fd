import Observation
import TellerCore

/// The lock screen: the signed-in operator's PIN unlocks it.
@MainActor @Observable
public final class LockedViewModel {
    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public let lockedOperator: Operator
    public private(set) var pinEntry = KeypadEntry(maximumLength: 8)
    public private(set) var state: SignInViewModel.State = .entering

    init(dependencies: FeatureDependencies, navigator: any Navigator, lockedOperator: Operator) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.lockedOperator = lockedOperator
    }

    public var title: String { tr("Locked") }
    public var subtitle: String { tr("{name} ({id}) · enter your PIN to unlock", ["name": Localization.verbatim(lockedOperator.displayName), "id": Localization.leftToRight("\(lockedOperator.id)")]) }
    public var fieldText: String { pinEntry.masked }
    public var fieldAccessibilityValue: String { trn("{count} digit entered", "{count} digits entered", count: pinEntry.digits.count) }
    public var unlockTitle: String { tr("Unlock") }
    public var signOutTitle: String { tr("Sign out") }
    public var pinLabel: String { tr("PIN") }
    public var keypad: KeypadText { KeypadText(name: tr("PIN pad"), enterTitle: unlockTitle) }

    public var message: String? {
        switch state {
        case .entering: nil
        case .verifying: tr("Checking…")
        case .failed(let text), .lockedOut(let text): text
        }
    }

    public func press(digit: Character) {
        pinEntry.append(digit)
        if case .failed = state { state = .entering }
    }

    public func backspace() {
        pinEntry.backspace()
    }

    public func unlock() async {
        state = .verifying
        do throws(SignInError) {
            try await dependencies.session.unlock(lockedOperator, pin: pinEntry.digits)
            pinEntry.clear()
            state = .entering
            navigator?.unlocked()
        } catch {
            pinEntry.clear()
            state = SignInViewModel.state(for: error, time: dependencies.time, now: dependencies.clock.now())
        }
    }

    public func signOut() { navigator?.signOut() }
}

extension LockedViewModel: ScreenViewModel {
    public var screenName: String { "locked" }
    public var screenKind: ScreenKind { .locked(self) }
}
