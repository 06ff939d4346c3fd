import Foundation
import Testing
@testable import ProcessTestSupport

/// The real binary's command line as a technician meets it: every
/// subcommand answers --help, and check-config names what is wrong with a
/// file without letting the file's bytes into the terminal.
@Suite struct CommandLineTests {
    static let teller = TestProducts.executable("teller")
    static let subcommands = ["run", "status", "drain", "check-config", "hash-pin", "scenario", "ctl", "ctl-bridge"]

    @Test(arguments: subcommands) func everySubcommandAnswersHelp(_ command: String) async throws {
        let result = try await ChildProcess.run(Self.teller, [command, "--help"])
        #expect(result.status == 0, "\(command) --help: \(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: teller \(command)"), "\(result.stdout)")
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
