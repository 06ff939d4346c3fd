@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

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

        /// The token on disk is sealed (SealedBox under the terminal secret):
        /// no token, no JSON in the file. The crash-state checker's own
        /// unsealing (deploy/vm/crash_states.py, libsodium through ctypes)
        /// reads it; another secret cannot, and authenticates afresh; a
        /// token an older version left in the clear is sealed at start.
        @Test func theStoredTokenIsSealedUnderTheTerminalSecret() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            defer { Task { await host.stop() } }
            let directory = TemporaryDirectory("teller-terminal")
            let tokenFile = directory.file("refresh-token")
            _ = try await Terminal.client(hostURL: host.url, directory: directory).vault.validAccessToken()
            let sealed = try Data(contentsOf: URL(fileURLWithPath: tokenFile))
            #expect(sealed.starts(with: Array("TLSB".utf8)))
            #expect((try? JSONSerialization.jsonObject(with: sealed)) == nil)
            #expect(!String(decoding: sealed, as: UTF8.self).contains("token"))

            let unsealed = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", """
                import sys; sys.path.insert(0, sys.argv[1])
                import crash_states
                plain = crash_states.unseal(open(sys.argv[2], "rb").read(), sys.argv[3].encode())
                sys.stdout.write(plain.decode() if plain else "NONE")
                """, ReferenceHost.repositoryRoot + "/deploy/vm", tokenFile, ReferenceHost.terminalSecret])
            #expect(unsealed.status == 0, "\(unsealed.stderr)")
            let stored = try JSONSerialization.jsonObject(with: Data(unsealed.stdout.utf8)) as? [String: Any]
            let token = try #require(stored?["token"] as? String, "unsealed: \(unsealed.stdout)")
            #expect(!token.isEmpty)

            // Another secret: the sealed token cannot be opened, so it is not used.
            let before = try await host.stats()
            let stranger = TokenVault(connection: HostConnection(configuration: try HostConfiguration(baseURL: host.url)),
                                      credentials: TerminalCredentials(terminalID: ReferenceHost.terminalID, secret: ReferenceHost.terminalSecret + "-rotated"),
                                      dataDirectory: directory.path)
            _ = await thrownError(HostError.self) { _ = try await stranger.validAccessToken() }
            let after = try await host.stats()
            #expect(after.refreshes == before.refreshes, "the token sealed under the old secret was not sent")

            // In the clear, as an older version wrote it: used, and sealed at once.
            let legacy = TemporaryDirectory("teller-terminal-legacy")
            try JSONEncoder().encode(StoredRefreshToken(token: token, expiresAt: Date().addingTimeInterval(3600)))
                .write(to: URL(fileURLWithPath: legacy.file("refresh-token")))
            let migrated = try Terminal.client(hostURL: host.url, directory: legacy)
            #expect(try Data(contentsOf: URL(fileURLWithPath: legacy.file("refresh-token"))).starts(with: Array("TLSB".utf8)))
            _ = try await migrated.vault.validAccessToken()
            #expect(try await host.stats().refreshes == after.refreshes + 1, "the legacy token was used")
        }

        func permissions(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
    }
}
