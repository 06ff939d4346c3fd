@testable import ProcessHarness
import Foundation
import TellerCore
@testable import TellerData
@testable import HostTransport
@testable import Cryptography

/// The reference host's demo data (docs/reference-host.md) and a terminal
/// wired to it the way the `teller` executable wires one.
enum HostFixtures {
    /// Anna Schmidt, EUR 12,500.00.
    static let rich = try! IBAN("DE54500105170426397158")
    /// Jonas Weber, EUR 42.50.
    static let low = try! IBAN("DE98100700002431457802")
    /// Lukas Peeters, blocked at the bank: it refuses every payment (account_blocked).
    static let blocked = try! IBAN("BE66001482756043")
    static let maria = OperatorID("1001")!
    static let tom = OperatorID("1002")!
    static let lea = OperatorID("1003")!
    /// Paul Fischer, disabled at the bank.
    static let paul = OperatorID("1004")!

    static let credentials = TerminalCredentials(terminalID: ReferenceHost.terminalID, secret: ReferenceHost.terminalSecret)

    /// Argon2id at libsodium's minimum cost: the same code path, milliseconds per hash.
    static let cheapHasher = PINHasher(operations: 1, memoryBytes: 8192)

    /// Wide limits, so the tests exercise the drain and not the limit rules.
    static let limits: Limits = {
        func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }
        return try! Limits(currency: .eur, perTransaction: eur(1_000_000), dailyPerTerminal: eur(100_000_000),
                           perOfflineTransaction: eur(1_000_000), offlineQueuedTotal: eur(100_000_000), maxOfflineAge: 72 * 3600)
    }()

    /// Short backoff so retries happen within a test's time budget.
    static let quickRetries = RetryPolicy(base: 0.05, cap: 0.5, retryAfterCap: 30, idleInterval: 5)

    static func deposit(_ minor: Int64, into account: IBAN = rich) -> TransactionRequest {
        try! TransactionRequest(kind: .deposit, account: account, amount: Money(minorUnits: minor, currency: .eur), operatorID: maria)
    }

    static func withdrawal(_ minor: Int64, from account: IBAN) -> TransactionRequest {
        try! TransactionRequest(kind: .withdrawal, account: account, amount: Money(minorUnits: minor, currency: .eur), operatorID: maria)
    }
}

/// One terminal's data directory, store and host client.
struct Terminal {
    let directory: TemporaryDirectory
    let store: TellerStore
    let client: HostClient

    /// - Parameters:
    ///   - hostURL: where the host is (or will be).
    ///   - directory: reuse a data directory to model a restart.
    init(hostURL: URL, directory: TemporaryDirectory = TemporaryDirectory("teller-terminal"), clock: any WallClock = SystemClock(), requestTimeout: TimeInterval = 5) throws {
        self.directory = directory
        let client = try Terminal.client(hostURL: hostURL, directory: directory, requestTimeout: requestTimeout)
        self.client = client
        // As the executable wires it: online limits only while the bank answered within the timeout.
        store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits, clock: clock,
                                online: HostAnswers(host: client, within: requestTimeout))
    }

    static func client(hostURL: URL, directory: TemporaryDirectory, requestTimeout: TimeInterval = 5) throws -> HostClient {
        let connection = HostConnection(configuration: try HostConfiguration(baseURL: hostURL, requestTimeout: requestTimeout))
        let vault = TokenVault(connection: connection, credentials: HostFixtures.credentials, dataDirectory: directory.path)
        return HostClient(connection: connection, vault: vault)
    }

    func engine(_ policy: RetryPolicy = HostFixtures.quickRetries) -> SyncEngine {
        SyncEngine(store: store, host: client, policy: policy)
    }

    /// Rows in queue (id) order.
    func rowsInQueueOrder() async throws -> [OutboxEntry] {
        try await store.entries().sorted { $0.id < $1.id }
    }

    /// True once no row is queued or sending.
    func isDrained() async throws -> Bool {
        try await store.summary().pendingCount == 0
    }
}

extension OutboxState {
    var isConfirmed: Bool {
        if case .confirmed = self { return true }
        return false
    }

    var reference: String? {
        if case .confirmed(let reference) = self { return reference }
        return nil
    }
}
