import FoundationEssentials
import TellerCore
import HostTransport

/// The read path: the cache answers at once, the host second, and a fresh
/// snapshot replaces the cache. When the host is unreachable the cached
/// snapshot stays, with its as-of time.
public struct AccountRepository: AccountReading {
    let store: TellerStore
    let host: HostClient?

    public init(store: TellerStore, host: HostClient?) {
        self.store = store
        self.host = host
    }

    public func cachedSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot? {
        try await store.cachedSnapshot(for: iban)
    }

    public func freshSnapshot(for iban: IBAN) async throws(TellerError) -> AccountSnapshot {
        guard let host else { throw .offline }
        let snapshot: AccountSnapshot
        do throws(HostError) {
            snapshot = try await host.account(iban)
        } catch {
            switch error {
            case .notFound: throw .accountNotFound(iban)
            // No usable answer from the bank (unreachable, slow, busy, a portal,
            // a redirect, a TLS refusal): the cached rows stay on screen with
            // their time, and the status bar says why; never an error wall.
            case .offline, .timeout, .cancelled, .retryable, .inProgress, .invalidResponse, .redirectRefused, .tls, .mismatch, .unauthorized:
                throw .offline
            default: throw .host(error.description)
            }
        }
        try await store.saveSnapshot(snapshot)
        return snapshot
    }
}
