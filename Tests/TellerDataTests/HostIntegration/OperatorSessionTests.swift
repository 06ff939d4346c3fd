@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

extension HostIntegrationTests {
    /// Operator sign-in online against the host, then offline from the stored verifier.
    @Suite struct OperatorSessionTests {
        @Test func anOperatorSeenOnlineCanSignInOfflineAndOnlyThatOperator() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let session = OperatorSession(store: terminal.store, host: terminal.client, hasher: HostFixtures.cheapHasher)

            let (maria, mode) = try await session.signIn(HostFixtures.maria, pin: "1234")
            #expect(mode == .online)
            #expect(maria == Operator(id: HostFixtures.maria, displayName: "Maria Keller"))
            #expect(try await host.stats().pinVerifications == 1)

            await host.stop()
            // The same terminal with its host gone: the verifier stored at the online sign-in decides.
            let (again, offlineMode) = try await session.signIn(HostFixtures.maria, pin: "1234")
            #expect(offlineMode == .offline)
            #expect(again == maria)
            await #expect(throws: SignInError.wrongPIN(attemptsLeft: 4)) {
                try await session.signIn(HostFixtures.maria, pin: "4321")
            }
            // Tom is a valid operator at the bank but has never signed in on this terminal.
            await #expect(throws: SignInError.neverSeenOnline(HostFixtures.tom)) {
                try await session.signIn(HostFixtures.tom, pin: "2580")
            }
            // Without any host configured the same holds.
            let hostless = OperatorSession(store: terminal.store, host: nil, hasher: HostFixtures.cheapHasher)
            #expect(try await hostless.signIn(HostFixtures.maria, pin: "1234").1 == .offline)
        }

        @Test func wrongPINsLockOutAndTheLockoutSurvivesReopeningTheStore() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let clock = FixedClock(Fixtures.noon)
            let directory = TemporaryDirectory("teller-terminal")
            var terminal: Terminal? = try Terminal(hostURL: host.url, directory: directory, clock: clock)
            let online = OperatorSession(store: try #require(terminal).store, host: try #require(terminal).client, hasher: HostFixtures.cheapHasher)
            #expect(try await online.signIn(HostFixtures.lea, pin: "4711").1 == .online)
            // A wrong PIN the host refuses counts too.
            await #expect(throws: SignInError.wrongPIN(attemptsLeft: 4)) {
                try await online.signIn(HostFixtures.lea, pin: "1111")
            }
            await host.stop()

            let offline = OperatorSession(store: try #require(terminal).store, host: try #require(terminal).client, hasher: HostFixtures.cheapHasher)
            for left in [3, 2, 1] {
                await #expect(throws: SignInError.wrongPIN(attemptsLeft: left)) {
                    try await offline.signIn(HostFixtures.lea, pin: "0000")
                }
            }
            let lockedUntil = clock.now().addingTimeInterval(offline.lockout)
            await #expect(throws: SignInError.lockedOut(until: lockedUntil)) {
                try await offline.signIn(HostFixtures.lea, pin: "0000")
            }
            // Locked means locked: the right PIN does not help either.
            await #expect(throws: SignInError.lockedOut(until: lockedUntil)) {
                try await offline.signIn(HostFixtures.lea, pin: "4711")
            }

            // A restart: a new store and session on the same data directory.
            terminal = nil
            let reopened = try Terminal(hostURL: host.url, directory: directory, clock: clock)
            let afterRestart = OperatorSession(store: reopened.store, host: reopened.client, hasher: HostFixtures.cheapHasher)
            await #expect(throws: SignInError.lockedOut(until: lockedUntil)) {
                try await afterRestart.signIn(HostFixtures.lea, pin: "4711")
            }
            clock.advance(offline.lockout + 1)
            #expect(try await afterRestart.signIn(HostFixtures.lea, pin: "4711").1 == .offline)
        }

        @Test func aDisabledOperatorIsToldSo() async throws {
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host")).start()
            let terminal = try Terminal(hostURL: host.url)
            let session = OperatorSession(store: terminal.store, host: terminal.client, hasher: HostFixtures.cheapHasher)
            await #expect(throws: SignInError.operatorDisabled(HostFixtures.paul)) {
                try await session.signIn(HostFixtures.paul, pin: "1111")
            }
            // Nothing was stored for a disabled operator: offline sign-in stays impossible.
            let hostless = OperatorSession(store: terminal.store, host: nil, hasher: HostFixtures.cheapHasher)
            await #expect(throws: SignInError.neverSeenOnline(HostFixtures.paul)) {
                try await hostless.signIn(HostFixtures.paul, pin: "1111")
            }
            await host.stop()
        }
    }
}
