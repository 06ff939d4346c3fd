import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// Issue 42, item 11: the package starts `teller.service` before anyone has
/// provisioned the terminal. Without a terminal id it shows the technician
/// what to do, offers no sign-in, and contacts no bank.
@Suite(.serialized, .tags(.realProcess)) struct UnprovisionedTerminalTests {
    @Test func aTerminalWithoutATerminalIDShowsTheTechnicianNoticeAndNoSignIn() async throws {
        let terminal = try TerminalProcess(host: nil, without: ["terminal_id"])
        try await terminal.start()
        defer { terminal.child?.killNow() }
        #expect(try await terminal.screen() == "unprovisioned")
        #expect(try await terminal.waitForText("quick_check"), "the facts are read")
        let texts = try await terminal.texts()
        #expect(texts.contains("This terminal is not provisioned"), "\(texts)")
        #expect(texts.contains { $0.contains("/usr/lib/teller/provision") }, "\(texts)")
        #expect(texts.contains("not provisioned · E2E, Terminal"), "the facts say which terminal: \(texts)")
        #expect(texts.contains("none (offline only), Host"), "\(texts)")
        await #expect(throws: (any Error).self, "there is no sign-in to tap") { try await terminal.tap("sign-in.pin.1") }
        #expect(try await terminal.screen() == "unprovisioned")
    }
}
