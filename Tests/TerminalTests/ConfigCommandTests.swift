import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller config get` and `set` through the real binary, as the deploy
/// scripts call them: get reads what the terminal reads, set writes only
/// what the terminal would accept and keeps everything else in the file.
@Suite(.tags(.realProcess)) struct ConfigCommandTests {
    static let teller = TestProducts.executable("teller")

    let directory = TemporaryDirectory("teller-config")
    var file: String { directory.file("teller.conf") }

    func write(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o640)
    }

    func contents() throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
    }

    func config(_ arguments: String...) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Self.teller, ["config", "--config", file] + arguments)
    }

    func checkConfig() async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(Self.teller, ["check-config", file])
        return (result.status, result.stdout + result.stderr)
    }

    /// Only the file itself: a write leaves no temporary beside it.
    func folder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    // MARK: get

    /// The running terminal and `config get` read one line the same way,
    /// where a line-based reader (the old deploy conf_get) kept the comment.
    @Test func getPrintsWhatTheRunningTerminalReads() async throws {
        let terminal = try TerminalProcess(host: nil)
        let path = terminal.directory.file("teller.conf")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text.contains("terminal_id = T-0001\n"))
        try Data(text.replacingOccurrences(of: "terminal_id = T-0001\n", with: "terminal_id = \"T-0002\"   # the bench by the window\n").utf8)
            .write(to: URL(fileURLWithPath: path))

        let get = try await ChildProcess.run(Self.teller, ["config", "--config", path, "get", "terminal_id"])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == "T-0002\n")

        try await terminal.start()
        defer { terminal.child?.killNow() }
        #expect(try await terminal.status()["terminal_id"] as? String == "T-0002")
    }

    @Test(arguments: [
        ("branch = Main # the main one", "Main"),
        ("branch = \"Main #1\"  # quoted, so the first # is kept", "Main #1"),
        ("branch = Main#1", "Main#1"),
        ("branch=\"  padded  \"", "  padded  "),
        ("  branch   =   spaced out   ", "spaced out"),
        ("rotation = 90\t# upside down", "90"),
    ])
    func getDropsCommentsAndQuotesAsTheTerminalDoes(_ line: String, _ value: String) async throws {
        try write("# header\n\(line)\n")
        let get = try await config("get", line.contains("rotation") ? "rotation" : "branch")
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == value + "\n")
        // The terminal's own check reads the same line and accepts it.
        #expect(try await checkConfig().status == 0)
    }

    @Test func getRefusesAValueTheTerminalRefusesWithTheSameWords() async throws {
        // No space before '#': part of the value, which is then no time zone.
        try write("branch = Main\ntime_zone = Europe/Berlin#office\n")
        let get = try await config("get", "time_zone")
        #expect(get.status == 3)
        #expect(get.stdout.isEmpty)
        let problem = "\(file):2: time_zone: 'Europe/Berlin#office' is not an IANA time zone like Europe/Berlin"
        #expect(get.stderr.contains(problem), "\(get.stderr)")
        #expect(try await checkConfig().output.contains(problem))
        // A broken line elsewhere does not hide a sound one.
        #expect(try await config("get", "branch").stdout == "Main\n")
    }

    @Test func anAbsentKeyExitsOneAndPrintsNothing() async throws {
        try write("branch = Main\n")
        let get = try await config("get", "host_url")
        #expect(get.status == 1)
        #expect(get.stdout.isEmpty)
        #expect(get.stderr.isEmpty)
    }

    @Test func anUnknownKeyIsRefusedByName() async throws {
        try write("branch = Main\n")
        let get = try await config("get", "rotaton")
        #expect(get.status == 2)
        #expect(get.stderr.contains("unknown key 'rotaton' (did you mean rotation?)"), "\(get.stderr)")
        let set = try await config("set", "rotaton", "90")
        #expect(set.status == 2)
        #expect(set.stderr.contains("unknown key 'rotaton'"), "\(set.stderr)")
        #expect(try contents() == "branch = Main\n")
    }

    @Test func aBrokenFileIsNamedWithItsLine() async throws {
        try write("branch = Main\ndata_dir /srv/teller\n")
        let get = try await config("get", "data_dir")
        #expect(get.status == 3, "a line without '=' may be the key asked for: no answer is a guess")
        #expect(get.stderr.contains("\(file):2: expected 'key = value', found 'data_dir /srv/teller'"), "\(get.stderr)")
        let set = try await config("set", "data_dir", "/srv/teller")
        #expect(set.status == 3)
        #expect(set.stderr.contains("\(file):2: expected 'key = value'"), "\(set.stderr)")
        #expect(try contents() == "branch = Main\ndata_dir /srv/teller\n")

        try write("branch = Main\nbranch = Other\n")
        let twice = try await config("get", "branch")
        #expect(twice.status == 3)
        #expect(twice.stderr.contains("\(file):2: 'branch' is set again (first on line 1)"), "\(twice.stderr)")

        let folder = try await ChildProcess.run(Self.teller, ["config", "--config", directory.path, "get", "branch"])
        #expect(folder.status == 3)
        #expect(folder.stderr.contains("\(directory.path): is a directory"), "\(folder.stderr)")
        let missing = try await ChildProcess.run(Self.teller, ["config", "--config", directory.file("none.conf"), "set", "branch", "x"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("none.conf: no such file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("none.conf")))
    }

    // MARK: set

    @Test func setKeepsEveryOtherLineAndCommentAndWritesByRename() async throws {
        let before = """
            # /etc/teller/teller.conf: this terminal's settings

            terminal_id = T-0001   # from the bank
            # rotation = 270 (the old panel)
            rotation=90  # upside down
            branch = "Main #1"

            """
        try write(before)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int)
        let set = try await config("set", "rotation", "180", "time_zone", "Europe/Berlin")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try contents() == """
            # /etc/teller/teller.conf: this terminal's settings

            terminal_id = T-0001   # from the bank
            # rotation = 270 (the old panel)
            rotation = 180
            branch = "Main #1"
            time_zone = Europe/Berlin

            """)
        let after = try FileManager.default.attributesOfItem(atPath: file)
        #expect(after[.posixPermissions] as? Int == 0o640)
        #expect(after[.systemFileNumber] as? Int != inode, "a new file renamed over the old one, never rewritten in place")
        #expect(try folder() == ["teller.conf"])
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func rootSettingAKeyLeavesTheFileTheServices() async throws {
        try write("branch = Main\n")
        #expect(chown(file, 65534, 65534) == 0)
        #expect(try await config("set", "branch", "Other").status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect(attributes[.ownerAccountID] as? Int == 65534)
        #expect(attributes[.groupOwnerAccountID] as? Int == 65534)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
    }

    /// /etc/teller is writable by the service: a symlink it planted where a
    /// writer puts its temporary must not make root write through it.
    @Test func aLinkPlantedBesideTheFileIsNeverWrittenThrough() async throws {
        try write("branch = Main\n")
        let victim = directory.file("victim")
        try Data("root's file\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: file + ".tmp", withDestinationPath: victim)
        #expect(try await config("set", "branch", "Other").status == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root's file\n")
        #expect(try contents() == "branch = Other\n")
    }

    @Test func anInvalidValueIsRefusedNamingTheKeyAndTheFileIsUntouched() async throws {
        let before = "branch = Main\nrotation = 90\n"
        try write(before)
        let set = try await config("set", "rotation", "45", "limit_daily", "50,000")
        #expect(set.status == 4)
        #expect(set.stderr.contains("\(file):2: rotation: '45' is not 0, 90, 180 or 270"), "\(set.stderr)")
        #expect(set.stderr.contains("\(file):3: limit_daily: '50,000' is not an amount like 2000 or 2000.50"), "\(set.stderr)")
        #expect(set.stderr.contains("nothing was changed"))
        #expect(try contents() == before)
        #expect(try folder() == ["teller.conf"])
    }

    @Test func whatTheTerminalWouldRefuseAtStartIsRefused() async throws {
        let before = "terminal_id = T-0001\n"
        try write(before)
        // Rules between keys: the offline limit (2000 by default) above the online one.
        let limits = try await config("set", "limit_per_transaction", "100")
        #expect(limits.status == 4)
        #expect(limits.stderr.contains("limits:"), "\(limits.stderr)")
        // What LiveData refuses when it builds the host connection.
        let plain = try await config("set", "host_url", "http://bank.example")
        #expect(plain.status == 4)
        #expect(plain.stderr.contains("plain http"), "\(plain.stderr)")
        #expect(try contents() == before)
        // Both at once, consistent, is fine.
        #expect(try await config("set", "limit_per_transaction", "100", "limit_offline_per_transaction", "50").status == 0)
        #expect(try await checkConfig().status == 0)
    }

    @Test(arguments: ["Main #1", "  padded  ", "\"quoted\"", "#first", "a#b", "Müller & Söhne"])
    func aValueReadsBackExactlyAsItWasSet(_ value: String) async throws {
        try write("terminal_id = T-0001\n")
        let set = try await config("set", "--", "branch", value)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try await config("get", "branch").stdout == value + "\n")
        #expect(try await checkConfig().status == 0)
    }

    @Test func aValueNoLineCanHoldIsRefused() async throws {
        try write("branch = Main\n")
        // Whichever way it is written, one ' #' falls outside the quotes.
        let set = try await config("set", "branch", "x # y \"z # w")
        #expect(set.status == 4)
        #expect(set.stderr.contains("branch: the value cannot be written on one line"), "\(set.stderr)")
        #expect(try contents() == "branch = Main\n")
    }

    @Test func settingWhatTheFileAlreadySaysWritesNothing() async throws {
        try write("rotation=90   # upside down\n")
        let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        let set = try await config("set", "rotation", "90")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.contains("nothing to change"))
        #expect(try contents() == "rotation=90   # upside down\n", "the line keeps its spacing and comment")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == inode)
    }

    // MARK: set: what changed, --dry-run, the PIN on stdin

    func config(stdin: String, _ arguments: String...) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(Self.teller, ["config", "--config", file] + arguments, stdin: Data(stdin.utf8))
    }

    /// What provisioning reports as changed: the keys whose value differs,
    /// never a value, and nothing at all the second time.
    @Test func setPrintsTheKeysItChanged() async throws {
        try write("branch = Main\nrotation = 90\n")
        let set = try await config("set", "branch", "North", "rotation", "90", "language", "de")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "branch\nlanguage\n")
        #expect(!set.stdout.contains("North"))
        let again = try await config("set", "branch", "North", "rotation", "90", "language", "de")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.isEmpty)
    }

    @Test func dryRunNamesTheKeysAndWritesNothing() async throws {
        try write("branch = Main\n")
        let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int
        let dry = try await config("set", "--dry-run", "branch", "North")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "branch\n")
        #expect(dry.stderr.contains("would set branch"), "\(dry.stderr)")
        #expect(try contents() == "branch = Main\n")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == inode)
        #expect(try folder() == ["teller.conf"])
        // A value the terminal refuses fails the dry run the same way.
        let refused = try await config("set", "--dry-run", "rotation", "45")
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("rotation"), "\(refused.stderr)")
    }

    /// The same PIN twice writes once: the stored hash still verifies it,
    /// where a new hash would differ by its salt. Neither the PIN nor the
    /// hash is ever an argument.
    @Test func thePINOnStdinIsStoredOnlyWhenTheStoredHashDoesNotVerifyIt() async throws {
        try write("branch = Main\n")
        let first = try await config(stdin: "4711\n", "set", "--technician-pin-stdin")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "technician_pin_hash\n")
        #expect(!first.stdout.contains("argon2id") && !first.stderr.contains("argon2id") && !first.stderr.contains("4711"))
        let stored = try await config("get", "technician_pin_hash")
        let hash = try #require(stored.stdout.split(separator: "\n").first)
        #expect(hash.hasPrefix("$argon2id$v=19$"))
        let written = try contents()
        let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int

        let same = try await config(stdin: "4711\n", "set", "--technician-pin-stdin", "branch", "Main")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.isEmpty)
        #expect(try contents() == written)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == inode)

        let other = try await config(stdin: "9876\n", "set", "--technician-pin-stdin", "branch", "Main")
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout == "technician_pin_hash\n")
        let restored = try await config("get", "technician_pin_hash")
        let newHash = try #require(restored.stdout.split(separator: "\n").first)
        #expect(newHash != hash)
        #expect(try contents() == written.replacingOccurrences(of: String(hash), with: String(newHash)))
    }

    @Test func aBadPINOrAHashPairIsRefusedAndNothingIsWritten() async throws {
        try write("branch = Main\n")
        for pin in ["12", "12ab", "1234567890123", ""] {
            let set = try await config(stdin: pin + "\n", "set", "--technician-pin-stdin", "branch", "North")
            #expect(set.status == 2, "PIN '\(pin)'")
            #expect(set.stderr.contains("4 to 12 digits"), "\(set.stderr)")
        }
        let both = try await config(stdin: "4711\n", "set", "--technician-pin-stdin", "technician_pin_hash", "x")
        #expect(both.status == 2)
        #expect(try await config("get", "--dry-run", "branch").status == 2)
        #expect(try contents() == "branch = Main\n")
    }

    @Test func helpAndUsage() async throws {
        let help = try await ChildProcess.run(Self.teller, ["config", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: teller config"))
        #expect(help.stdout.contains("exit codes"))
        let odd = try await config("set", "branch")
        #expect(odd.status == 2)
        #expect(try await config("frobnicate").status == 2)
    }
}
