import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The real binary's command line as a technician meets it: every
/// subcommand answers --help, and check-config names what is wrong with a
/// file without letting the file's bytes into the terminal.
@Suite(.tags(.realProcess)) struct CommandLineTests {
    static let teller = TestProducts.executable("teller")
    static let subcommands = ["run", "status", "metrics", "drain", "check-config", "hash-pin", "scenario", "ctl", "ctl-bridge", "console-lock"]

    @Test(arguments: subcommands) func everySubcommandAnswersHelp(_ command: String) async throws {
        let result = try await ChildProcess.run(Self.teller, [command, "--help"])
        #expect(result.status == 0, "\(command) --help: \(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: teller \(command)"), "\(result.stdout)")
    }

    /// `teller --help` lists console-lock, and the binary refuses a file that
    /// is not a VT by name, exit 1, and a bad command line with 2. Only
    /// /dev/null is named: this machine's own consoles are never touched.
    @Test func consoleLockIsListedAndNamesWhatIsNotAVirtualTerminal() async throws {
        let help = try await ChildProcess.run(Self.teller, ["--help"])
        #expect(help.stdout.contains("console-lock [--tty TTY]"), "\(help.stdout)")
        for arguments in [["--tty", "/dev/null"], ["--check", "--tty", "/dev/null"], ["--unlock", "--tty", "/dev/null"]] {
            let result = try await ChildProcess.run(Self.teller, ["console-lock"] + arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("/dev/null: KDGETMODE failed: Inappropriate ioctl for device (errno 25)"), "\(arguments): \(result.stderr)")
        }
        let both = try await ChildProcess.run(Self.teller, ["console-lock", "--check", "--unlock", "--tty", "/dev/null"])
        #expect(both.status == 2, "\(both.stderr)")
        #expect(both.stderr.contains("--unlock and --check cannot go together"), "\(both.stderr)")
    }

    func checkConfig(_ path: String) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(Self.teller, ["check-config", path])
        return (result.status, result.stdout + result.stderr)
    }

    @Test func aDirectoryOrADeviceIsNamedForWhatItIs() async throws {
        let directory = TemporaryDirectory("teller-check-config")
        let folder = try await checkConfig(directory.path)
        #expect(folder.status != 0)
        #expect(folder.output.contains("\(directory.path): is a directory"), "\(folder.output)")
        let device = try await checkConfig("/dev/null")
        #expect(device.status != 0)
        #expect(device.output.contains("/dev/null: is not a regular file: it is a character device"), "\(device.output)")
    }

    /// teller.conf is opened once, by its own name, and what was opened is
    /// looked at: a pipe is refused at once (a read would wait for a writer
    /// forever), a symbolic link is refused whether or not it leads anywhere,
    /// and bytes that are not UTF-8 are named.
    @Test func aPipeALinkOrNonUTF8IsRefusedAtOnce() async throws {
        let directory = TemporaryDirectory("teller-check-config")
        let pipe = directory.file("pipe.conf")
        try #require(mkfifo(pipe, 0o600) == 0)
        let fifo = try await checkConfig(pipe)
        #expect(fifo.status != 0)
        #expect(fifo.output.contains("\(pipe): is not a regular file: it is a pipe or special file"), "\(fifo.output)")

        let real = directory.file("real.conf")
        try Data("terminal_id = T-0001\n".utf8).write(to: URL(fileURLWithPath: real))
        #expect(try await checkConfig(real).status == 0)
        for (name, target) in [("link.conf", real), ("dangling.conf", directory.file("gone.conf"))] {
            try FileManager.default.createSymbolicLink(atPath: directory.file(name), withDestinationPath: target)
            let link = try await checkConfig(directory.file(name))
            #expect(link.status != 0, "\(name)")
            #expect(link.output.contains("\(directory.file(name)): is a symbolic link"), "\(name): \(link.output)")
        }

        let latin1 = directory.file("latin1.conf")
        try Data([0x62, 0x72, 0x61, 0x6E, 0x63, 0x68, 0x20, 0x3D, 0x20, 0x4D, 0xFC, 0x6E, 0x0A]).write(to: URL(fileURLWithPath: latin1))
        let notUTF8 = try await checkConfig(latin1)
        #expect(notUTF8.status != 0)
        #expect(notUTF8.output.contains("\(latin1): the file is not UTF-8 text"), "\(notUTF8.output)")
    }

    /// `teller run` refuses a database it must not touch with the same
    /// exit code as `teller status`, which teller.service reads to stop
    /// restarting; the file is left exactly as it was.
    @Test(arguments: [("empty", Int32(4)), ("foreign", Int32(5))])
    func runRefusesADatabaseWithItsOwnExitCode(_ kind: String, _ code: Int32) async throws {
        let directory = TemporaryDirectory("teller-run-refused")
        try FileManager.default.createDirectory(atPath: directory.file("data"), withIntermediateDirectories: true)
        let database = directory.file("data/teller.db")
        if kind == "empty" {
            try Data().write(to: URL(fileURLWithPath: database))
        } else {
            #expect(try await ChildProcess.run("/usr/bin/sqlite3", [database, "CREATE TABLE customers(id INTEGER)"]).status == 0)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let result = try await ChildProcess.run(Self.teller, ["run", "--data-dir", directory.file("data"), "--runtime-dir", directory.file("run"),
                                                              "--display", "offscreen", "--terminal-id", "T-1"], timeout: .seconds(30))
        #expect(result.status == code, "\(result.stderr)")
        #expect(result.stderr.contains(database), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("data")) == ["teller.db"], "nothing beside it either")
    }

    @Test func controlBytesAreEscapedAndTextIsBounded() async throws {
        let directory = TemporaryDirectory("teller-check-config")
        let file = directory.file("teller.conf")
        try Data("branch = \(String(repeating: "a", count: 65))\n\u{1B}[2J\u{1B}]0;pwned\u{07}\nterminal_id = T\u{07}1\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let result = try await checkConfig(file)
        #expect(result.status != 0)
        #expect(result.output.contains(":1: branch: is 65 characters long; at most 64"), "\(result.output)")
        #expect(result.output.contains(":2: expected 'key = value', found '\\x1b[2J\\x1b]0;pwned\\x07'"), "\(result.output)")
        #expect(result.output.contains(":3: terminal_id: contains a control character"), "\(result.output)")
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "no raw control byte reaches the terminal")
    }
}
