import Testing
import TellerConfiguration

/// teller.conf as text: each fault named with its file, line and key, and
/// flags over the file.
@Suite struct ConfigurationTextTests {
    @Test func aGoodFileGivesItsValuesAndNoProblems() throws {
        let (configuration, problems) = Configuration.load(text: """
            # a branch terminal
            terminal_id = T-0001
            data_dir = /var/lib/teller
            """, file: "/etc/teller/teller.conf")
        #expect(problems.isEmpty, "\(problems)")
        #expect(configuration.terminalID == "T-0001")
        #expect(configuration.dataDirectory == "/var/lib/teller")
    }

    @Test func eachFaultNamesTheFileTheLineAndTheKey() throws {
        let (_, problems) = Configuration.load(text: """
            terminal_id = T-0001
            colour = blue
            terminal_id = T-0002
            just words
            """, file: "/etc/teller/teller.conf")
        #expect(problems.map(\.line).sorted() == [2, 3, 4], "\(problems)")
        #expect(problems.allSatisfy { $0.file == "/etc/teller/teller.conf" })
        let unknown = try #require(problems.first { $0.line == 2 })
        #expect(unknown.description.contains("colour"), "\(unknown)")
    }

    /// retention_days: 180 unless set, whole days from 30 (the bank keeps
    /// idempotency keys 30 days) to 3650; anything else is named with its line.
    @Test func retentionDaysHasADefaultAMinimumAndNamesABadValue() throws {
        #expect(Configuration.load(text: "", file: "teller.conf").0.retentionDays == 180)
        let (ninety, none) = Configuration.load(text: "retention_days = 90\n", file: "teller.conf")
        #expect(none.isEmpty && ninety.retentionDays == 90, "\(none)")
        #expect(Configuration.load(text: "retention_days = 30\n", file: "teller.conf").1.isEmpty)
        for bad in ["29", "0", "-5", "90.5", "ninety", "3651"] {
            let (_, problems) = Configuration.load(text: "branch = Main\nretention_days = \(bad)\n", file: "teller.conf")
            let problem = try #require(problems.first, "retention_days = \(bad) was taken")
            #expect(problem.line == 2 && problem.description.contains("retention_days: '\(bad)' is not a whole number of days from 30"),
                    "\(problem)")
        }
    }

    /// Control bytes in a file are shown escaped: a message never repaints a technician's terminal.
    @Test func aProblemNeverCarriesControlBytes() throws {
        let (_, problems) = Configuration.load(text: "\u{1B}[2Jkey = 1\n", file: "teller.conf")
        let problem = try #require(problems.first)
        #expect(!problem.description.contains("\u{1B}"), "\(problem)")
    }

    /// A flag is a key: `--data-dir DIR` over `data_dir` in the file.
    @Test func aFlagOverridesTheFile() throws {
        let options = CommandLineOptions(["--config", "/nonexistent/teller.conf", "--data-dir", "/tmp/x", "--until-empty"], switches: ["--until-empty"])
        #expect(options.configuration.dataDirectory == "/tmp/x")
        #expect(options.configurationPath == "/nonexistent/teller.conf")
    }
}
