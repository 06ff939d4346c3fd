import FoundationEssentials
import Testing
@testable import ProcessHarness
@testable import TellerCommands
import Device

/// `teller console-lock`: its command line, and what it says and exits with
/// on paths that are not virtual terminals. Every run here names a path that
/// is not a VT; none may lock the console of the machine the tests run on,
/// so no test uses the default /dev/tty1.
@Suite struct ConsoleLockCommandTests {
    typealias Options = ConsoleLockCommand.Options

    private func parsed(_ arguments: [String]) -> Result<Options, ConsoleLockCommand.UsageError> {
        Result { () throws(ConsoleLockCommand.UsageError) -> Options in try Options(parsing: arguments) }
    }

    @Test func theCommandLineNamesTheActionAndTheTTY() throws {
        #expect(try parsed([]).get() == Options(action: .lock, tty: "/dev/tty1"))
        #expect(try parsed(["--tty", "/dev/tty3"]).get() == Options(action: .lock, tty: "/dev/tty3"))
        #expect(try parsed(["--unlock"]).get() == Options(action: .unlock, tty: "/dev/tty1"))
        #expect(try parsed(["--tty", "/dev/tty2", "--check"]).get() == Options(action: .check, tty: "/dev/tty2"))
        #expect(try parsed(["--check", "--check"]).get() == Options(action: .check, tty: "/dev/tty1"), "asked twice is asked once")
    }

    static let refused: [([String], String)] = [
        (["--unlock", "--check"], "--unlock and --check cannot go together"),
        (["--tty"], "--tty needs the VT's path"),
        (["--tty", ""], "--tty needs the VT's path"),
        (["--tty", "--check"], "--tty needs the VT's path"),
        (["--tty", "/dev/null", "--tty", "/dev/zero"], "--tty given twice"),
        (["--lock"], "unknown option '--lock'"),
        (["--help"], "unknown option '--help'"),
        (["/dev/null"], "unexpected '/dev/null'"),
    ]

    /// (The run comes only after the parse is known to refuse: a parser that
    /// accepted `--lock` would otherwise lock this machine's /dev/tty1.)
    @Test(arguments: refused) func aBadCommandLineIsRefusedBeforeAnythingIsOpened(_ arguments: [String], _ message: String) throws {
        let error = try #require(parsed(arguments).failure, "\(arguments) was accepted")
        #expect(error.description.hasPrefix(message), "\(arguments): \(error)")
        #expect(ConsoleLockCommand.run(arguments) == ConsoleLockCommand.Exit.usage.rawValue)
    }

    static let actions: [ConsoleLockCommand.Action] = [.lock, .unlock, .check]

    /// What a KD ioctl on a file that is not a VT gets: ENOTTY from the
    /// kernel; ENOSYS under qemu-user (the arm64 tests of tools/build-arm64),
    /// which passes no KD ioctl on.
    static let notAVirtualTerminal = ["Inappropriate ioctl for device (errno 25)", "Function not implemented (errno 38)"]

    /// LINE names the call after PREFIX with one of the answers above.
    static func namesTheFailingCall(_ line: String, after prefix: String) -> Bool {
        notAVirtualTerminal.contains { line.contains(prefix + $0) }
    }

    /// Lock, unlock and check all stop at the first, read-only ioctl on a
    /// file that is not a VT, and name the path, the call and errno's text.
    @Test(arguments: actions) func devNullIsNamedWithTheFailingCall(_ action: ConsoleLockCommand.Action) {
        let outcome = ConsoleLockCommand.run(Options(action: action, tty: "/dev/null"))
        #expect(outcome.exit == .failed)
        #expect(outcome.line.hasPrefix("teller console-lock: /dev/null: KDGETMODE failed: "), "\(outcome.line)")
        #expect(Self.namesTheFailingCall(outcome.line, after: "/dev/null: KDGETMODE failed: "), "\(outcome.line)")
    }

    @Test func aRegularFileOrAMissingPathIsNamed() throws {
        let directory = TemporaryDirectory("teller-console-lock")
        let file = directory.file("tty1")
        try Data().write(to: URL(fileURLWithPath: file))
        let regular = ConsoleLockCommand.run(Options(action: .lock, tty: file))
        #expect(regular.exit == .failed)
        #expect(Self.namesTheFailingCall(regular.line, after: "\(file): KDGETMODE failed: "), "\(regular.line)")

        let missing = directory.file("tty9")
        let absent = ConsoleLockCommand.run(Options(action: .check, tty: missing))
        #expect(absent.exit == .failed)
        #expect(absent.line.contains("\(missing): open failed: No such file or directory"), "\(absent.line)")
        #expect(ConsoleLockCommand.run(["--tty", missing]) == ConsoleLockCommand.Exit.failed.rawValue)
    }

    /// One line says what changed, and a second run says nothing had to.
    @Test func theLineSaysWhatChanged() {
        let name = "/dev/tty1 (VT 1)"
        let fresh = ConsoleState(display: .text, keyboard: .unicode, activeNumber: 2)
        #expect(ConsoleLockCommand.lockedLine(name, number: 1, before: fresh)
            == "/dev/tty1 (VT 1) locked: display graphics (was text), keyboard off (was unicode), active (was VT 2)")
        let locked = ConsoleState(display: .graphics, keyboard: .off, activeNumber: 1)
        #expect(ConsoleLockCommand.lockedLine(name, number: 1, before: locked)
            == "/dev/tty1 (VT 1) was already locked: display graphics, keyboard off, active")
        let halfway = ConsoleState(display: .graphics, keyboard: .unicode, activeNumber: 1)
        #expect(ConsoleLockCommand.lockedLine(name, number: 1, before: halfway)
            == "/dev/tty1 (VT 1) locked: display graphics, keyboard off (was unicode), active")
        #expect(ConsoleLockCommand.unlockedLine(name, before: locked)
            == "/dev/tty1 (VT 1) unlocked: display text (was graphics), keyboard unicode (was off)")
        #expect(ConsoleLockCommand.unlockedLine(name, before: fresh)
            == "/dev/tty1 (VT 1) was already unlocked: display text, keyboard unicode")
    }

    @Test func theUsageListsIt() {
        #expect(usage.contains("console-lock [--tty TTY]"))
        #expect(commandUsage["console-lock"]?.hasPrefix("usage: teller console-lock") == true)
    }
}
