@testable import ProcessTestSupport
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// The refresh token is the one secret the vault writes; a restart must find it.
    @Suite struct RefreshTokenTests {
        @Test func aNewVaultOnTheSameDataDirectoryRefreshesWithTheStoredToken() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let directory = TemporaryDirectory("teller-terminal")
            let tokenFile = directory.file("refresh-token")

            let first = try Terminal.client(hostURL: host.url, directory: directory)
            _ = try await first.vault.validAccessToken()
            let afterIssue = try await host.stats()
            #expect(afterIssue.tokenIssues == 1)
            #expect(afterIssue.refreshes == 0)
            #expect(try permissions(tokenFile) == 0o600)
            let storedBefore = try Data(contentsOf: URL(fileURLWithPath: tokenFile))

            // What a restarted process has: nothing in memory, only the data directory.
            let second = try Terminal.client(hostURL: host.url, directory: directory)
            _ = try await second.account(HostFixtures.rich)
            let afterRestart = try await host.stats()
            #expect(afterRestart.refreshes == afterIssue.refreshes + 1)
            #expect(afterRestart.tokenIssues == afterIssue.tokenIssues, "the secret was not needed again")
            #expect(await second.vault.refreshCount == 1)
            // Rotated: a new refresh token, written with the same mode.
            #expect(try Data(contentsOf: URL(fileURLWithPath: tokenFile)) != storedBefore)
            #expect(try permissions(tokenFile) == 0o600)
            // DurableFile's temporary (refresh-token.XXXXXX) was renamed, not left beside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("refresh-token.") } == [])
            await host.stop()
        }

        func permissions(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
    }
}
