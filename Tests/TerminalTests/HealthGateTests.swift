import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller status --gate`: the health gate after an update (the image's
/// health-gate script and the fleet's rolling update ask it), judged by
/// teller itself from the running terminal's control socket and the queue,
/// so no script reads JSON or writes the rule again.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) struct HealthGateTests {
    static let rich = "DE54500105170426397158"

    func gate(_ terminal: TerminalProcess) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run(terminal.teller, ["status", "--gate", "--config", terminal.directory.file("teller.conf")])
    }

    @Test func onlinePassesOfflineWithAQueueDoesNotAndNoTerminalWithNothingQueuedPasses() async throws {
        let host = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        let terminal = try TerminalProcess(host: host.url)
        try await terminal.start()
        defer { terminal.child?.killNow(); Task { await host.stop() } }
        try await terminal.signIn()
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        let online = try await gate(terminal)
        #expect(online.status == 0 && online.stdout == "gate passed: the terminal is online\n", "\(online)")

        await host.stop()
        try await terminal.ctl("sync")
        #expect(try await eventuallyThrowing(timeout: .seconds(60)) { try await terminal.status()["online"] as? Bool == false })
        try await terminal.tap("account.deposit")
        try await terminal.enterAmount("1000")
        try await terminal.tap("review.confirm")
        #expect(try await terminal.waitForScreen("receipt"))
        let offline = try await gate(terminal)
        #expect(offline.status == 10, "\(offline)")
        #expect(offline.stdout == "gate not passed: offline, and 1 transaction(s) are still queued\n", "\(offline)")

        await terminal.stop()
        let stopped = try await gate(terminal)
        #expect(stopped.status == 10, "\(stopped)")
        #expect(stopped.stdout.hasPrefix("gate not passed: the running terminal did not answer on \(terminal.directory.file("run"))/control.sock"), "\(stopped)")
    }

    @Test func aStoppedTerminalWithNothingQueuedPasses() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        await terminal.stop()
        let result = try await gate(terminal)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("gate passed: nothing is queued (the running terminal did not answer"), "\(result)")
    }

    /// The deploy scripts' words for a refused database come from teller's one table.
    @Test func theRefusalMeaningsAreTeller() async throws {
        let teller = TestProducts.executable("teller")
        let damaged = try await ChildProcess.run(teller, ["status", "--refusal-meaning", "7"])
        #expect(damaged.status == 0 && damaged.stdout == "the database is damaged or truncated\n", "\(damaged)")
        let notARefusal = try await ChildProcess.run(teller, ["status", "--refusal-meaning", "10"])
        #expect(notARefusal.status == 1 && notARefusal.stdout.isEmpty, "\(notARefusal)")
        let help = try await ChildProcess.run(teller, ["--help"])
        #expect(help.stdout.contains("  7 the database is damaged or truncated\n"), "\(help)")
    }
}
