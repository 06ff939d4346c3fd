@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// (b) Many requests meet an expired token at once.
    @Suite struct TokenStormTests {
        @Test func twentyConcurrent401sCauseExactlyOneRefresh() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            var rows: [(key: IdempotencyKey, payload: [UInt8])] = []
            for index in 0..<20 {
                let entry = try await terminal.store.enqueue(HostFixtures.deposit(200 + Int64(index)))
                rows.append((entry.key, try #require(try await terminal.store.frozenPayload(for: entry.key))))
            }
            // A first call takes a token; the host then expires it, so every
            // request below leaves with a token the vault still believes in.
            _ = try await terminal.client.account(HostFixtures.rich)
            let vaultRefreshesBefore = await terminal.client.vault.refreshCount
            #expect(try await host.expireTokens() >= 1)
            try await host.reset()
            // Slow answers make sure all 20 have left with the dead token before the first 401 is back.
            try await host.setFaults(.init(delayMs: 100))

            let client = terminal.client
            let outcomes = try await withThrowingTaskGroup(of: SubmissionOutcome.self) { group in
                for row in rows {
                    group.addTask { try await client.submit(row.payload, key: row.key) }
                }
                return try await group.reduce(into: [SubmissionOutcome]()) { $0.append($1) }
            }

            #expect(outcomes.count == 20)
            #expect(outcomes.allSatisfy { if case .posted(_, false) = $0 { true } else { false } }, "\(outcomes)")
            let stats = try await host.stats()
            #expect(stats.unauthorized == 20, "every request met the expired token")
            #expect(stats.refreshes == 1, "one refresh for the whole storm")
            #expect(stats.tokenIssues == 0, "the refresh token was used, not the secret")
            #expect(stats.postings == 20)
            #expect(await terminal.client.vault.refreshCount == vaultRefreshesBefore + 1)
            await host.stop()
        }
    }
}
