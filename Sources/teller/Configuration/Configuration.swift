import Foundation
import TellerCore

/// The terminal's settings. Every key is documented in docs/configuration.md.
struct Configuration {
    var dataDirectory = "/var/lib/teller"
    var limits = Configuration.defaultLimits

    /// Conservative counter limits for a terminal nobody has provisioned yet.
    static let defaultLimits: Limits = {
        let eur = Currency.eur
        // Constant, valid limits: the initializer cannot throw for these values.
        return try! Limits(
            currency: eur,
            perTransaction: Money(minorUnits: 1_000_000, currency: eur),
            dailyPerTerminal: Money(minorUnits: 5_000_000, currency: eur),
            perOfflineTransaction: Money(minorUnits: 200_000, currency: eur),
            offlineQueuedTotal: Money(minorUnits: 1_000_000, currency: eur),
            maxOfflineAge: 72 * 3600)
    }()
}
