import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import HostTransport

/// The live data layer built from the configuration: the store, and when a
/// host is configured the host client, token vault, sync engine and the
/// link monitor that wakes it. Only the composition root builds live parts
/// (``TerminalApp``, `teller drain`).
public struct LiveData {
    public let store: TellerStore
    public let host: HostClient?
    public let engine: SyncEngine?
    public let linkMonitor: LinkMonitor?
    /// The time rows are stamped with and ages are measured by (see TrustedClock).
    public let clock: TrustedClock

    /// One line per change of the sync problem, not one per retry (`teller run` and `teller drain`).
    public static func logProblem(_ problem: SyncProblem?) {
        if let problem {
            Log.warning("sync: \(problem.kind.rawValue): \(problem.detail)")
        } else {
            Log.info("sync: online: the bank answers")
        }
    }

    public init(configuration: Configuration) throws {
        let clock = TrustedClock(floor: BuildInfo.buildDate)
        self.clock = clock
        guard let url = configuration.hostURL else {
            store = try TellerStore(dataDirectory: configuration.dataDirectory, limits: configuration.limits(), till: configuration.tillSettings(),
                                    clock: clock)
            store.configurePrinting(receiptCopies: configuration.receiptsPerPayment)
            host = nil
            engine = nil
            linkMonitor = nil
            return
        }
        guard let terminalID = configuration.terminalID else {
            throw ConfigurationProblem(file: "configuration", line: 0, message: "host_url is set but terminal_id is not")
        }
        let connection = HostConnection(configuration: try configuration.hostConfiguration(url))
        // The bank's Date on an answer that proved to be the bank's sets the clock's reference.
        connection.reachability.observeBankTime { clock.bankSaid($0) }
        let credentials = try TerminalCredentials.load(terminalID: terminalID, secretFile: configuration.secretFile)
        let vault = TokenVault(connection: connection, credentials: credentials, dataDirectory: configuration.dataDirectory)
        let host = HostClient(connection: connection, vault: vault)
        let timeout = configuration.requestTimeout
        // The online limits apply only while the bank answered within the last
        // request timeout, and over an offline limit only if it answers now.
        store = try TellerStore(dataDirectory: configuration.dataDirectory, limits: configuration.limits(), till: configuration.tillSettings(),
                                clock: clock, online: HostAnswers(host: host, within: timeout))
        store.configurePrinting(receiptCopies: configuration.receiptsPerPayment)
        let engine = SyncEngine(store: store, host: host, policy: RetryPolicy(base: configuration.retryBase, cap: configuration.retryCap),
                                // A retry's timer is routine: not a line per retry at info.
                                onWake: { reason in reason == "timer" ? Log.debug("sync: woke (timer)") : Log.info("sync: woke (\(reason))") },
                                onProblem: LiveData.logProblem,
                                onTillEventRejected: { key, reason in Log.warning("sync: the bank refused till event \(key): \(reason)") })
        self.host = host
        self.engine = engine
        do {
            linkMonitor = try LinkMonitor { reason in
                Task { await engine.wake(reason: reason) }
            }
        } catch {
            Log.warning("sync: \(error); draining on the timer only")
            linkMonitor = nil
        }
    }
}
