import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The scenario steps the virtual device's network check needs: `link
/// down|up` (the host cuts the link; in-process there is no link, so it is
/// skipped with a note) and `wait-for-text SECONDS TEXT`.
@Suite(.tags(.realProcess)) struct ScenarioLinkStepTests {
    private func run(_ steps: String, in terminal: TerminalProcess, name: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        let scenario = terminal.directory.file("\(name).scenario")
        try Data(steps.utf8).write(to: URL(fileURLWithPath: scenario))
        return try await ChildProcess.run(
            terminal.teller, ["scenario", scenario, "--config", terminal.directory.file("teller.conf"), "--out", terminal.directory.file("shots")],
            timeout: .seconds(60))
    }

    @Test func linkIsSkippedInProcessAndWaitForTextWaitsForText() async throws {
        let terminal = try TerminalProcess(host: nil)
        let result = try await run("wait-for sign-in.pin 20\nlink down\nlink up\nwait-for-text 20 with your operator ID\n", in: terminal, name: "link")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("link:2: link down: skipped in-process"), "\(result.stdout)")
        #expect(result.stdout.contains("link:3: link up: skipped in-process"), "\(result.stdout)")
    }

    @Test func waitForTextFailsWithTheFileAndLine() async throws {
        let terminal = try TerminalProcess(host: nil)
        let result = try await run("wait-for sign-in.pin 20\nwait-for-text 1 no such words on any screen\n", in: terminal, name: "absent")
        #expect(result.status != 0)
        #expect(result.stdout.contains("absent.scenario:2: wait-for-text 'no such words on any screen': no label or value on screen 'sign-in' contains it after 1 s"),
                "\(result.stdout)\n\(result.stderr)")
    }

    @Test func malformedLinkAndWaitForTextStepsAreRefused() async throws {
        let terminal = try TerminalProcess(host: nil)
        let link = try await run("link sideways\n", in: terminal, name: "sideways")
        #expect(link.status == 2)
        #expect((link.stdout + link.stderr).contains("sideways.scenario:1: link needs down or up: link down|up"), "\(link.stdout)\n\(link.stderr)")
        let wait = try await run("wait-for-text soon Queue empty\n", in: terminal, name: "soon")
        #expect(wait.status == 2)
        #expect((wait.stdout + wait.stderr).contains("soon.scenario:1: wait-for-text: 'soon' is not a timeout"), "\(wait.stdout)\n\(wait.stderr)")
    }
}
