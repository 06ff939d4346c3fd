import TellerFeatures
import Widgets

extension TerminalView {
    /// A control was tapped: the one place where taps become view-model
    /// calls. Async actions run through `coordinator.perform`.
    ///
    /// - Parameter identifier: The control's accessibility identifier, as
    ///   `TouchTracker` or `teller ctl tap` reports it.
    /// - Returns: False when the identifier means nothing on the screen on
    ///   top (a stale tap after the screen changed).
    @discardableResult
    public func handleTap(identifier: String) -> Bool {
        coordinator.noteActivity()
        switch coordinator.current {
        case .signIn(let model): return tapSignIn(identifier, model)
        case .locked(let model): return tapLocked(identifier, model)
        case .home(let model): return tapHome(identifier, model)
        case .findAccount(let model): return tapFindAccount(identifier, model)
        case .account(let model): return tapAccount(identifier, model)
        case .amount(let model): return tapAmount(identifier, model)
        case .review(let model):
            switch identifier {
            case ReviewScreen.confirm: coordinator.perform { await model.confirm() }
            case ReviewScreen.back: model.back()
            default: return false
            }
        case .receipt(let model):
            guard identifier == ReceiptScreen.done else { return false }
            model.done()
        case .queue(let model): return tapQueue(identifier, model)
        case .diagnostics(let model): return tapDiagnostics(identifier, model)
        }
        return true
    }

    private func tapSignIn(_ id: String, _ model: SignInViewModel) -> Bool {
        if let key = KeypadKey(tapIdentifier: id, keypadIdentifier: SignInScreen.keypad) {
            digits(key, press: model.press(digit:), backspace: model.backspace, enter: { self.coordinator.perform { await model.enter() } })
            return true
        }
        switch id {
        case SignInScreen.back: model.back()
        // Tapping the operator field while typing the PIN goes back to the id.
        case SignInScreen.operatorField: if model.step == .pin { model.back() }
        case SignInScreen.pinField: break
        default: return false
        }
        return true
    }

    private func tapLocked(_ id: String, _ model: LockedViewModel) -> Bool {
        let unlock = { self.coordinator.perform { await model.unlock() } }
        if let key = KeypadKey(tapIdentifier: id, keypadIdentifier: LockedScreen.keypad) {
            digits(key, press: model.press(digit:), backspace: model.backspace, enter: unlock)
            return true
        }
        switch id {
        case LockedScreen.unlock: unlock()
        case LockedScreen.signOut: model.signOut()
        case LockedScreen.pinField: break
        default: return false
        }
        return true
    }

    private func tapHome(_ id: String, _ model: HomeViewModel) -> Bool {
        switch id {
        case HomeScreen.findAccount: model.findAccount()
        case HomeScreen.queue: model.openQueue()
        case HomeScreen.lock: model.lock()
        case HomeScreen.signOut: model.signOut()
        case HomeScreen.diagnostics where model.hasDiagnostics: model.openDiagnostics()
        default: return false
        }
        return true
    }

    private func tapFindAccount(_ id: String, _ model: FindAccountViewModel) -> Bool {
        if let key = KeypadKey(tapIdentifier: id, keypadIdentifier: FindAccountScreen.keyboard) {
            switch key {
            case .backspace: model.backspace()
            case .enter: model.open()
            case .space: break
            default: key.text.map { $0.forEach(model.type) }
            }
            return true
        }
        switch id {
        case FindAccountScreen.open: model.open()
        case FindAccountScreen.back: model.back()
        case FindAccountScreen.field: break
        default: return false
        }
        return true
    }

    private func tapAccount(_ id: String, _ model: AccountViewModel) -> Bool {
        switch id {
        case AccountScreen.deposit where model.canTransact: model.deposit()
        case AccountScreen.withdraw where model.canTransact: model.withdraw()
        case AccountScreen.transfer where model.canTransact: model.transfer()
        case AccountScreen.back: model.back()
        default: return id.hasPrefix(AccountScreen.activity + ".")
        }
        return true
    }

    private func tapAmount(_ id: String, _ model: AmountEntryViewModel) -> Bool {
        let review = { self.coordinator.perform { await model.reviewTransaction() } }
        if let key = KeypadKey(tapIdentifier: id, keypadIdentifier: AmountEntryScreen.keys) {
            switch key {
            case .digit(let n): model.press(digit: Character(String(n)))
            case .doubleZero: model.pressDoubleZero()
            case .letter(let c): model.type(c)
            case .backspace: model.backspace()
            case .enter: review()
            case .space: break
            }
            return true
        }
        switch id {
        case AmountEntryScreen.review: review()
        case AmountEntryScreen.back: model.back()
        case AmountEntryScreen.amountField: model.focus(.amount)
        case AmountEntryScreen.recipientField: model.focus(.recipient)
        default: return false
        }
        return true
    }

    private func tapQueue(_ id: String, _ model: QueueViewModel) -> Bool {
        switch id {
        case QueueScreen.syncNow: coordinator.perform { await model.syncNow() }
        case QueueScreen.back: model.back()
        default:
            let rows = model.rows
            for (index, row) in rows.enumerated() {
                if id == QueueScreen.acknowledge(index) {
                    guard row.needsAcknowledgement else { return false }
                    coordinator.perform { await model.acknowledge(row.key) }
                    return true
                }
                if id == QueueScreen.row(index) { return true }
            }
            return false
        }
        return true
    }

    private func tapDiagnostics(_ id: String, _ model: DiagnosticsViewModel) -> Bool {
        let unlock = { self.coordinator.perform { await model.unlock() } }
        if model.mode == .locked, let key = KeypadKey(tapIdentifier: id, keypadIdentifier: DiagnosticsScreen.keypad) {
            digits(key, press: model.press(digit:), backspace: model.backspace, enter: unlock)
            return true
        }
        switch id {
        case DiagnosticsScreen.open where model.mode == .locked: unlock()
        case DiagnosticsScreen.back, DiagnosticsScreen.done: model.done()
        case DiagnosticsScreen.touchTest where model.mode != .locked: model.startTouchTest()
        case DiagnosticsScreen.calibrate where model.mode != .locked: model.startCalibration()
        case DiagnosticsScreen.pinField: break
        default: return id.hasPrefix(DiagnosticsScreen.report + ".")
        }
        return true
    }

    /// A numeric keypad key: digits ("00" is two zeros), backspace, enter.
    private func digits(_ key: KeypadKey, press: (Character) -> Void, backspace: () -> Void, enter: () -> Void) {
        switch key {
        case .digit(let n): press(Character(String(n)))
        case .doubleZero: press("0"); press("0")
        case .backspace: backspace()
        case .enter: enter()
        case .letter, .space: break
        }
    }
}
