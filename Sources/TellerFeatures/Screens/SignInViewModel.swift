import FoundationEssentials
import Observation
import TellerCore

/// Sign in: operator id, then PIN, on a numeric keypad. The same two steps
/// let a supervisor approve, on the operator's screen, what a counter limit
/// or a till's tolerance refused (``approving``), without signing anyone
/// in or out.
@MainActor @Observable
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
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public private(set) var step: Step = .operatorID
    public private(set) var state: State = .entering
    public private(set) var operatorEntry = KeypadEntry(maximumLength: 8)
    public private(set) var pinEntry = KeypadEntry(maximumLength: 8)
    /// What the supervisor approves; nil for an operator's sign-in.
    public let approving: ApprovalSubject?

    init(dependencies: FeatureDependencies, navigator: any Navigator, approving: ApprovalSubject? = nil) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.approving = approving
    }

    public var title: String { approving == nil ? tr("Sign in") : tr("Approval") }
    public var prompt: String { step == .operatorID ? tr("Operator ID") : tr("PIN for operator {id}", ["id": Localization.leftToRight(operatorEntry.digits)]) }
    public var fieldText: String { step == .operatorID ? operatorEntry.digits : pinEntry.masked }
    public var fieldAccessibilityValue: String {
        step == .operatorID ? operatorEntry.digits : trn("{count} digit entered", "{count} digits entered", count: pinEntry.digits.count)
    }
    public var enterTitle: String { step == .operatorID ? tr("Next") : approving == nil ? tr("Sign in") : tr("Approve") }
    public var canGoBack: Bool { step == .pin || approving != nil }
    public var backTitle: String { tr("Back") }
    public var instructions: String {
        switch approving {
        case nil: tr("Sign in with your operator ID and PIN.")
        case .payment(let request, let violation):
            tr("{limit} A supervisor other than {operator} signs here to approve {amount}.",
               ["limit": LimitText.text(violation), "operator": Localization.leftToRight(request.operatorID.rawValue),
                "amount": MoneyFormatting.text(request.amount)])
        case .tillClose(_, let overShort):
            overShort.minorUnits < 0
                ? tr("The drawer is {difference} short. A supervisor signs here to approve the close.",
                     ["difference": MoneyFormatting.text(Money(minorUnits: -overShort.minorUnits, currency: overShort.currency))])
                : tr("The drawer is {difference} over. A supervisor signs here to approve the close.",
                     ["difference": MoneyFormatting.text(overShort)])
        }
    }
    public var operatorLabel: String { approving == nil ? tr("Operator ID") : tr("Supervisor ID") }
    public var pinLabel: String { tr("PIN") }
    public var operatorFieldText: String { operatorEntry.digits }
    /// One dot per digit; the digits themselves never leave this model.
    public var pinFieldText: String { pinEntry.masked }
    public var keypad: KeypadText { KeypadText(name: tr("Number pad"), enterTitle: enterTitle) }

    /// Shown while the host is unreachable.
    public var offlineNote: String? {
        guard navigator?.isOnline == false else { return nil }
        if approving != nil { return tr("Offline: only supervisors who have signed in on this terminal before can approve.") }
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
    }

    public func backspace() {
        if step == .operatorID { operatorEntry.backspace() } else { pinEntry.backspace() }
    }

    public func back() {
        if approving != nil, step == .operatorID { return navigator?.pop() ?? () }
        pinEntry.clear()
        step = .operatorID
        state = .entering
    }

    /// Next (after the id) or sign in (after the PIN).
    public func enter() async {
        switch step {
        case .operatorID:
            guard let id = OperatorID(operatorEntry.digits) else {
                state = .failed(tr("An operator ID is 4 to 8 digits."))
                return
            }
            // Their own number, or no supervisor's: said now, not after a PIN typed for nothing.
            if approving != nil, let signedIn = navigator?.signedInOperator,
               let refusal = await dependencies.session.refusalBeforePIN(id, for: signedIn.id) {
                operatorEntry.clear()
                state = .failed(text(refusal))
                return
            }
            step = .pin
            state = .entering
        case .pin:
            guard let id = OperatorID(operatorEntry.digits) else { return back() }
            state = .verifying
            if let approving { return await approve(approving, by: id) }
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
            }
        }
    }

    /// The supervisor's PIN checked, the approved payment goes to review, or
    /// the till closes with the approval and its result replaces the till screen.
    private func approve(_ subject: ApprovalSubject, by supervisorID: OperatorID) async {
        guard let signedIn = navigator?.signedInOperator else { return }
        defer { pinEntry.clear() }
        do throws(TellerError) {
            let supervisor: Operator
            do throws(ApprovalRefusal) {
                supervisor = try await dependencies.session.approve(supervisorID, pin: pinEntry.digits, for: signedIn.id)
            } catch {
                throw .approval(error)
            }
            switch subject {
            case .payment(let request, _):
                let approved: TransactionRequest
                do throws(TransactionRuleError) { approved = try request.approved(by: supervisor.id) } catch { throw .rule(error) }
                navigator?.replaceTop(with: .review(approved, approver: supervisor))
            case .tillClose(let count, _):
                guard let till = dependencies.till else { return }
                let closed = try await till.close(by: signedIn.id, count: count, approvedBy: supervisor.id)
                navigator?.outboxChanged()
                navigator?.pop()
                navigator?.replaceTop(with: .tillClosed(closed, approver: supervisor))
            }
        } catch {
            if case .approval(.signIn(let signInError)) = error {
                state = Self.state(for: signInError, time: dependencies.time, now: dependencies.clock.now())
            } else if case .approval(let refusal) = error {
                state = .failed(text(refusal))
            } else {
                state = .failed(ErrorText.text(error))
            }
        }
    }

    /// Why the approval was not taken, in the words of what is approved.
    private func text(_ refusal: ApprovalRefusal) -> String {
        guard case .ownTransaction = refusal, let approving else { return ErrorText.text(refusal) }
        return switch approving {
        case .payment: tr("Nobody can approve their own payment. Another supervisor must sign.")
        case .tillClose: tr("Nobody can approve the close of their own till. Another supervisor must sign.")
        }
    }

    static func state(for error: SignInError, time: TimeFormatting, now: Date) -> State {
        switch error {
        case .lockedOut(let until): .lockedOut(tr("Too many wrong PINs. Try again at {time}.", ["time": time.clock(until)]))
        default: .failed(ErrorText.text(error))
        }
    }
}

extension SignInViewModel: ScreenViewModel {
    public var screenName: String { approving == nil ? "sign-in" : "approval" }
    public var screenKind: ScreenKind { .signIn(self) }
}
