import FoundationEssentials
import Testing
@testable import ProcessHarness
import TellerCommands
import TellerData
@testable import SQLite

/// `teller config` on real files: a change the terminal would refuse is not
/// written, a good one is, and `get` reads what `teller run` reads.
/// What the technician reads (stdout, the errors naming the key) is checked
/// on the real binary in `Tests/TerminalTests/ConfigCommandTests.swift`.
@Suite struct ConfigCommandTests {
    let directory = TemporaryDirectory("teller-config-command")

    @Test func aGoodChangeIsWrittenAndReadBack() throws {
        let path = directory.file("teller.conf")
        try Data("# the branch's terminal\nterminal_id = T-0001\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(ConfigCommand.set([(key: "terminal_id", value: "T-0002")], path: path) == .done)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "# the branch's terminal\nterminal_id = T-0002\n", "the comment is kept, the value replaced")
        #expect(ConfigCommand.get("terminal_id", path: path, required: true) == .done)
        #expect(ConfigCommand.get("host_url", path: path, required: true) == .notSet)
    }

    @Test func aChangeTheTerminalWouldRefuseLeavesTheFileAsItWas() throws {
        let path = directory.file("teller.conf")
        let before = Data("terminal_id = T-0001\n".utf8)
        try before.write(to: URL(fileURLWithPath: path))
        #expect(ConfigCommand.set([(key: "display", value: "hologram")], path: path) == .refused)
        #expect(ConfigCommand.set([(key: "colour", value: "blue")], path: path) == .usage, "an unknown key")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aDryRunWritesNothing() throws {
        let path = directory.file("teller.conf")
        let before = Data("terminal_id = T-0001\n".utf8)
        try before.write(to: URL(fileURLWithPath: path))
        var options = ConfigCommand.SetOptions()
        options.dryRun = true
        #expect(ConfigCommand.set([(key: "terminal_id", value: "T-0003")], path: path, options: options) == .done)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// One exit code per refused database, which teller.service and deploy/lib/common.sh rely on.
    @Test func eachRefusedDatabaseHasItsOwnExitCode() {
        let codes = [DatabaseRefusal.Kind.missing, .empty, .foreign, .newerSchema, .olderSchema, .damaged, .unreadable].map(\.exitCode)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { (3...9).contains($0) })
    }

    @Test func aJournalDayIsACalendarDay() {
        #expect(JournalCommand.isDay("2026-12-01"))
        #expect(!JournalCommand.isDay("2026-13-01"))
        #expect(!JournalCommand.isDay("2026-2-1"))
    }
}
