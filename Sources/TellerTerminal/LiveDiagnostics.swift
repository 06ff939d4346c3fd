import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import Cryptography

/// The technician screen's view of the running terminal: facts as values,
/// which DiagnosticsViewModel words.
actor LiveDiagnostics: DiagnosticsPort {
    private let configuration: Configuration
    private let configurationPath: String
    private let store: TellerStore
    private let hasher = PINHasher.interactive
    /// Facts only the main loop knows (display mode, input devices), read on demand.
    private let hardware: @Sendable () async -> DiagnosticsReport.Hardware?
    private let sync: (any SyncStatusPort)?
    private let storageFailures: StorageFailureRecord
    private let printer: (any PrinterStatusPort)?
    /// Read once at start, as the connection's certificate is.
    private let clientCertificate: ClientCertificateStatus?

    init(configuration: Configuration, configurationPath: String, store: TellerStore, sync: (any SyncStatusPort)?,
         storageFailures: StorageFailureRecord, printer: (any PrinterStatusPort)? = nil,
         hardware: @escaping @Sendable () async -> DiagnosticsReport.Hardware?) {
        self.printer = printer
        clientCertificate = configuration.clientCertificateStatus()
        self.sync = sync
        self.storageFailures = storageFailures
        self.configuration = configuration
        self.configurationPath = configurationPath
        self.store = store
        self.hardware = hardware
    }

    func verifyTechnicianPIN(_ pin: String) async -> Bool {
        guard let hash = configuration.technicianPINHash else { return false }
        return hasher.matches(pin, verifier: hash)
    }

    func report() async -> DiagnosticsReport {
        let bytes = FileStatus(path: store.path)?.size
        return DiagnosticsReport(
            version: BuildInfo.version, host: configuration.hostURL,
            databasePath: store.path, databaseBytes: bytes, quickCheck: try? await store.quickCheckReport(),
            sync: await sync?.status(), systemClock: Date(), needsReview: (try? await store.needsReviewEntries()) ?? [],
            lastStorageFailure: await storageFailures.last, hardware: await hardware(), printer: await printer?.printerReport(),
            clientCertificate: clientCertificate)
    }

    func switchLanguage(to language: Language) async throws(TellerError) {
        var format = Localization.format
        format.language = language
        let catalog: Catalog?
        do throws(CatalogError) {
            catalog = try Catalog.load(for: language, in: configuration.localeDirectory)
        } catch {
            throw .storage(detail: error.description)
        }
        do {
            try ConfigurationEditor.set("language", to: language.code, in: configurationPath)
        } catch {
            throw .storage(detail: "cannot write \(configurationPath): \(error.description)")
        }
        Localization.use(format, catalog: catalog)
        Log.info("language: switched to \(language) by the technician")
    }

    func saveCalibration(_ matrix: [Double]) async throws(TellerError) {
        let value = matrix.map { $0.fixed(decimals: 6) }.joined(separator: " ")
        do {
            try ConfigurationEditor.set("touch_calibration", to: value, in: configurationPath)
        } catch {
            throw .storage(detail: "cannot write \(configurationPath): \(error.description)")
        }
    }
}
