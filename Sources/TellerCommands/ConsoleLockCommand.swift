import Device
import SystemCalls
import TellerConfiguration

/// `teller console-lock [--unlock | --check] [--tty PATH]`: the panel's
/// virtual terminal locked for the kiosk image, before `teller run` draws
/// over it. Locked is graphics mode (fbcon draws no console text there,
/// also while the terminal restarts) with the console keyboard off (no
/// typing into a console, no Ctrl+Alt+Fn, no Ctrl+Alt+Del from the keymap);
/// locking also makes it the active VT. Teller's own keys come through
/// evdev, which neither mode touches. Root only: the kernel lets nobody
/// else change a console.
public enum ConsoleLockCommand {
    /// Exit codes, listed in `teller console-lock --help` and teller(8).
    public enum Exit: Int32, Sendable {
        /// Locked or unlocked (also when it already was); --check: locked.
        case done = 0
        /// The path is not a VT, or a call on it failed; the error names both.
        case failed = 1
        case usage = 2
        /// --check: not locked (text mode or the console keyboard on).
        case notLocked = 3
    }

    public enum Action: Hashable, Sendable {
        case lock, unlock, check
    }

    /// The command line, parsed.
    public struct Options: Hashable, Sendable {
        /// The panel's console unless the image says otherwise.
        public static let defaultTTY = "/dev/tty1"

        public var action: Action
        public var tty: String

        public init(action: Action = .lock, tty: String = Options.defaultTTY) {
            self.action = action
            self.tty = tty
        }

        /// - Throws: ``UsageError`` for an unknown word, a missing or repeated
        ///   `--tty`, or `--unlock` with `--check`.
        public init(parsing arguments: [String]) throws(UsageError) {
            self.init()
            var tty: String?
            var action: Action?
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--unlock", "--check":
                    let asked: Action = argument == "--unlock" ? .unlock : .check
                    guard action == nil || action == asked else { throw UsageError("--unlock and --check cannot go together") }
                    action = asked
                case "--tty":
                    guard tty == nil else { throw UsageError("--tty given twice") }
                    guard let path = rest.popFirst(), !path.isEmpty, !path.hasPrefix("--") else {
                        throw UsageError("--tty needs the VT's path, e.g. --tty /dev/tty1")
                    }
                    tty = path
                default:
                    throw UsageError(argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected '\(argument)'")
                }
            }
            self.action = action ?? .lock
            self.tty = tty ?? Options.defaultTTY
        }
    }

    /// What was wrong with the command line.
    public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// What a run prints (one line: on stdout when it succeeded, as the
    /// error otherwise) and its exit code.
    public struct Outcome: Hashable, Sendable {
        public let line: String
        public let exit: Exit
    }

    public static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do { options = try Options(parsing: arguments) }
        catch {
            Log.error("teller console-lock: \(error.description.escapingControlCharacters())\n\(commandUsage["console-lock"] ?? "")")
            return Exit.usage.rawValue
        }
        // The path is the caller's: its bytes must not repaint the technician's terminal.
        let outcome = run(options)
        let line = outcome.line.escapingControlCharacters()
        if outcome.exit == .failed { Log.error(line) } else { print(line) }
        return outcome.exit.rawValue
    }

    /// Opens the VT, does what `options` ask and words the result.
    public static func run(_ options: Options) -> Outcome {
        do {
            let terminal = try VirtualTerminal(path: options.tty)
            let name = "\(terminal.path) (VT \(terminal.number))"
            switch options.action {
            case .lock:
                let before = try terminal.lock()
                return Outcome(line: lockedLine(name, number: terminal.number, before: before), exit: .done)
            case .unlock:
                let before = try terminal.unlock()
                return Outcome(line: unlockedLine(name, before: before), exit: .done)
            case .check:
                let state = try terminal.state()
                let active = state.activeNumber == terminal.number ? "active" : "VT \(state.activeNumber) active"
                let verdict = state.isLocked ? "locked" : "not locked"
                return Outcome(line: "\(name): \(verdict) (display \(state.display), keyboard \(state.keyboard), \(active))",
                               exit: state.isLocked ? .done : .notLocked)
            }
        } catch {
            return Outcome(line: "teller console-lock: \(error)", exit: .failed)
        }
    }

    /// "/dev/tty1 (VT 1) locked: display graphics (was text), keyboard off (was unicode), active (was VT 2)",
    /// or "… was already locked: …" when nothing had to change.
    static func lockedLine(_ name: String, number: Int, before: ConsoleState) -> String {
        let changes = [
            "display graphics" + was(before.display, .graphics),
            "keyboard off" + was(before.keyboard, .off),
            "active" + (before.activeNumber == number ? "" : " (was VT \(before.activeNumber))"),
        ]
        let changed = before.display != .graphics || before.keyboard != .off || before.activeNumber != number
        return "\(name) \(changed ? "locked" : "was already locked"): \(changes.joined(separator: ", "))"
    }

    /// "/dev/tty1 (VT 1) unlocked: display text (was graphics), keyboard unicode (was off)",
    /// or "… was already unlocked: …".
    static func unlockedLine(_ name: String, before: ConsoleState) -> String {
        let changes = ["display text" + was(before.display, .text), "keyboard unicode" + was(before.keyboard, .unicode)]
        let changed = before.display != .text || before.keyboard != .unicode
        return "\(name) \(changed ? "unlocked" : "was already unlocked"): \(changes.joined(separator: ", "))"
    }

    private static func was<Mode: Equatable & CustomStringConvertible>(_ before: Mode, _ now: Mode) -> String {
        before == now ? "" : " (was \(before))"
    }
}
