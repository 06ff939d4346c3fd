/// What locking a VT for the kiosk depends on, read at one moment.
public struct ConsoleState: Hashable, Sendable {
    public var display: ConsoleDisplayMode
    public var keyboard: ConsoleKeyboardMode
    /// The number of the VT the kernel shows now.
    public var activeNumber: Int

    public init(display: ConsoleDisplayMode, keyboard: ConsoleKeyboardMode, activeNumber: Int) {
        self.display = display
        self.keyboard = keyboard
        self.activeNumber = activeNumber
    }

    /// Graphics mode with the console keyboard off: no console text and no
    /// console keys, whichever VT is shown.
    public var isLocked: Bool { display == .graphics && keyboard == .off }
}

extension VirtualTerminal {
    /// The display mode, keyboard mode and active VT now.
    public func state() throws(ConsoleError) -> ConsoleState {
        ConsoleState(display: try displayMode(), keyboard: try keyboardMode(), activeNumber: try activeNumber())
    }

    /// Locks the VT for the kiosk: graphics mode first, so that fbcon draws
    /// no text on it even as it is switched to, the console keyboard off,
    /// then this VT made the active one. Changes only what differs, so a
    /// second run changes nothing.
    /// - Returns: the state before, for the caller to say what changed.
    @discardableResult
    public func lock(activationWait: Duration = .seconds(2)) throws(ConsoleError) -> ConsoleState {
        let before = try state()
        if before.display != .graphics { try setDisplayMode(.graphics) }
        if before.keyboard != .off { try setKeyboardMode(.off) }
        if before.activeNumber != number { try activate(waitingUpTo: activationWait) }
        return before
    }

    /// Gives the VT back to the console, for a technician who gets in on
    /// purpose: text mode, the keyboard in Unicode. Changes only what differs.
    /// - Returns: the state before.
    @discardableResult
    public func unlock() throws(ConsoleError) -> ConsoleState {
        let before = try state()
        if before.display != .text { try setDisplayMode(.text) }
        if before.keyboard != .unicode { try setKeyboardMode(.unicode) }
        return before
    }
}
