import Foundation
import Testing
import TellerCommands
import TellerData
@testable import ProcessHarness
@testable import SQLite
import ProcessTestSupport

/// The exit-code table of a refused database is written once, in Swift
/// (DatabaseRefusal+ExitCode.swift). What cannot ask teller holds to it here:
/// teller.service's RestartPreventExitStatus= and the constants of the
/// fleet's facts module; the deploy scripts ask `teller status
/// --refusal-meaning` and keep no table.
@Suite struct ExitCodeTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The numbers on the line of `file` that starts with `prefix`.
    static func numbers(after prefix: String, in file: String) throws -> Set<Int32> {
        let line = try #require(try text(file).split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(file) has no line \(prefix)…")
        return Set(line.dropFirst(prefix.count).split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) })
    }

    @Test func theUnitDoesNotRestartADatabaseNoRestartCanMend() throws {
        let unit = try Self.numbers(after: "RestartPreventExitStatus=", in: "deploy/systemd/teller.service")
        let table = Set(DatabaseRefusal.Kind.allCases.filter(\.noRestartCanMend).map(\.exitCode))
        #expect(unit == table, "teller.service: \(unit.sorted()), Swift: \(table.sorted())")
    }

    @Test func theFactsModulesCodesAreTellers() throws {
        let facts = "deploy/ansible/collections/ansible_collections/teller/fleet/plugins/modules/facts.py"
        #expect(try Self.numbers(after: "NO_DATABASE = ", in: facts) == [DatabaseRefusal.Kind.missing.exitCode])
        #expect(try Self.numbers(after: "NOT_YET = ", in: facts) == [StatusCommand.notSettledExitCode])
    }

    /// No `N) echo "the database …"` table beside Swift's in the scripts.
    @Test func theScriptsKeepNoTableOfTheirOwn() throws {
        for script in ["deploy/lib/common.sh", "deploy/provision", "deploy/update", "deploy/diagnose",
                       "deploy/image/rootfs/usr/lib/teller/image/health-gate"] {
            let text = try Self.text(script)
            for kind in DatabaseRefusal.Kind.allCases {
                #expect(!text.contains(kind.meaning), "\(script) writes \(kind)'s words itself")
                #expect(!text.contains("\(kind.exitCode)) echo"), "\(script) has a case for exit \(kind.exitCode)")
            }
            #expect(!text.contains("\"online\""), "\(script) reads the status JSON's online field itself")
        }
    }
}

/// Issue 42, item 13: a technician or developer who wants the terminal gets
/// only `teller` from tools/build-arm64 (its first run built three products
/// and took 30 minutes); more only when asked.
@Suite(.tags(.realProcess)) struct BuildArm64DefaultsTests {
    @Test func theDefaultIsTellerAlone() async throws {
        let script = ExitCodeTableTests.root.appendingPathComponent("tools/build-arm64").path
        let alone = try await ChildProcess.run("/bin/bash", [script, "--print-products"])
        #expect(alone.status == 0 && alone.stdout == "teller\n", "\(alone)")
        let asked = try await ChildProcess.run("/bin/bash", [script, "--print-products", "--product", "teller", "--product", "device-smoke"])
        #expect(asked.stdout == "teller\ndevice-smoke\n", "\(asked)")
    }
}
