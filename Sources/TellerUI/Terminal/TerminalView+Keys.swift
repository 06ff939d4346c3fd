import TellerFeatures

extension TerminalView {
    /// Text from a hardware keyboard or scanner: characters go to the
    /// focused field; "\n" or "\r" is Enter, "\u{8}" or DEL is Backspace,
    /// "\t" is Tab.
    public func handleText(_ text: String) {
        for character in text {
            switch character {
            case "\n", "\r", "\r\n": handleKey(.enter)
            case "\u{8}", "\u{7F}": handleKey(.backspace)
            case "\t": handleKey(.tab)
            default: handleKey(.character(character))
            }
        }
    }

    /// One key. A scanner types a whole IBAN and then Enter: on Find
    /// account Enter opens the account; on a transfer's amount screen the
    /// IBAN lands in the recipient field (its leading letters move the
    /// focus there), and Enter hands the amount field back the keys.
    public func handleKey(_ key: TerminalKey) {
        coordinator.noteActivity()
        if case .character(let character) = key { noteTyped(character) }
        switch coordinator.current {
        case .signIn(let model):
            numeric(key, press: model.press(digit:), backspace: model.backspace) { self.coordinator.perform { await model.enter() } }
        case .locked(let model):
            numeric(key, press: model.press(digit:), backspace: model.backspace) { self.coordinator.perform { await model.unlock() } }
        case .diagnostics(let model) where model.mode == .locked:
            numeric(key, press: model.press(digit:), backspace: model.backspace) { self.coordinator.perform { await model.unlock() } }
        case .findAccount(let model):
            switch key {
            case .character(let character): model.type(character)
            case .backspace: model.backspace()
            case .enter:
                _ = takeTypedLine()
                model.open()
            case .tab: break
            }
        case .amount(let model):
            amountKey(key, model)
        default:
            break
        }
    }

    private func amountKey(_ key: TerminalKey, _ model: AmountEntryViewModel) {
        switch key {
        case .character(let character):
            if model.needsRecipient, model.focus == .amount, character.isASCII, character.isLetter {
                model.focus(.recipient)
            }
            if model.focus == .recipient {
                model.type(character)
            } else if character.isASCII, character.isNumber {
                model.press(digit: character)
            }
        case .backspace:
            model.backspace()
        case .tab:
            if model.needsRecipient { model.focus(model.focus == .amount ? .recipient : .amount) }
        case .enter:
            let line = takeTypedLine()
            if model.needsRecipient, model.focus == .recipient, line.contains(where: \.isLetter) {
                // A scanned IBAN replaces whatever was in the field; the amount comes next.
                model.scanned(line)
                model.focus(.amount)
            } else {
                coordinator.perform { await model.reviewTransaction() }
            }
        }
    }

    private func numeric(_ key: TerminalKey, press: (Character) -> Void, backspace: () -> Void, enter: () -> Void) {
        switch key {
        case .character(let character) where character.isASCII && character.isNumber: press(character)
        case .backspace: backspace()
        case .enter:
            _ = takeTypedLine()
            enter()
        default: break
        }
    }

    /// A touch that hit no control, for the touch test and calibration.
    ///
    /// - Parameters:
    ///   - x: Display pixel column, after rotation and calibration.
    ///   - y: Display pixel row.
    ///   - rawX: Where the panel reported it before any calibration,
    ///     normalised to 0...1 of its range; calibration solves from these.
    ///   - rawY: As `rawX`, for rows.
    public func handleTouch(x: Int, y: Int, rawX: Double, rawY: Double) {
        coordinator.noteActivity()
        guard case .diagnostics(let model) = coordinator.current else { return }
        switch model.mode {
        case .touchTest: model.touched(x: x, y: y)
        case .calibrating: coordinator.perform { await model.calibrationTap(rawX: rawX, rawY: rawY) }
        default: break
        }
    }
}
