import Device
import SystemCalls
import FoundationEssentials
import TellerCore
import HostTransport

/// The terminal's settings. Every key is documented in docs/configuration.md;
/// ``Configuration/keys`` is the single table that parses them.
public struct Configuration: Sendable {
    // Identity and host
    public var terminalID: String?
    public var branch = ""
    public var hostURL: URL?
    public var allowInsecureHTTP = false
    public var secretFile: String? = "/etc/teller/terminal-secret"
    public var requestTimeout: TimeInterval = 10
    /// PEM file of the CAs trusted for the host instead of the system store.
    public var caFile: String?
    /// The host's public-key pin (base64 SHA-256 of its SubjectPublicKeyInfo).
    public var hostPinSHA256: String?
    /// The terminal's own certificate for mutual TLS (PEM; its CN is terminal_id).
    public var clientCertificate: String?
    /// Its private key as a PEM file (a lab bench); in the field the sealed
    /// systemd credential teller-client-key, which wins when present.
    public var clientKey: String?
    /// Days before the client certificate expires that status, diagnostics and metrics warn.
    public var clientCertificateWarnDays = 30
    /// The client key itself, read from standard input by a command told
    /// to (`--client-key-stdin`): deploy/provision pipes it from the sealed
    /// credential. Not a key of teller.conf.
    public var givenClientKey: [UInt8]?
    public var retryBase: TimeInterval = 1
    public var retryCap: TimeInterval = 60

    // Storage and runtime
    public var dataDirectory = "/var/lib/teller"
    /// One log line per committed transaction, after the commit (power-cut tests).
    public var logCommits = false
    /// One log line per press, release, key and scan: its kernel time and its frame's presented time.
    public var logLatency = false
    /// Holds the control socket (systemd's RuntimeDirectory=teller).
    public var runtimeDirectory = Self.defaultRuntimeDirectory
    /// The running terminal's control socket, in ``runtimeDirectory``.
    public var controlSocketPath: String { Self.controlSocket(in: runtimeDirectory) }
    /// `runtime_dir` when teller.conf does not set it.
    public static let defaultRuntimeDirectory = "/run/teller"
    /// Where `teller ctl` looks without `--socket` or TELLER_CONTROL_SOCKET:
    /// the control socket of a terminal whose teller.conf keeps the default.
    public static var defaultControlSocketPath: String { controlSocket(in: defaultRuntimeDirectory) }
    private static func controlSocket(in directory: String) -> String { Path.join(directory, "control.sock") }
    /// node_exporter's textfile-collector file the running terminal keeps current; nil writes none.
    public var metricsFile: String?
    /// Days the terminal keeps what the bank has settled (payments, tills,
    /// printed slips, journal days) before retention removes it.
    public var retentionDays = defaultRetentionDays
    public static let defaultRetentionDays = 180
    /// At least the 30 days the bank keeps idempotency keys (``RetentionPolicy/minimumDays``); at most ten years.
    public static let retentionDaysRange = RetentionPolicy.minimumDays...3650

    // Display and input
    public enum DisplayChoice: String, Sendable { case auto, drm, fbdev, offscreen }
    public var display = DisplayChoice.auto
    public var drmCard: String?
    public var framebufferDevice: String?
    /// "1280x800" or "1280x800@60"; nil takes the panel's preferred mode.
    public var mode: String?
    public var rotation = 0
    /// libinput's LIBINPUT_CALIBRATION_MATRIX, six numbers.
    public var touchCalibration: [Double] = [1, 0, 0, 0, 1, 0]
    public var offscreenWidth = 800
    public var offscreenHeight = 480
    /// Pixels per dp; nil picks from the panel width.
    public var scale: Double?
    public var highContrast = false
    public var textScale = 1.0
    public var fontDirectory = "/usr/share/fonts/truetype/dejavu"

    // Language and regional format
    /// The language, currency display and digits of every screen.
    public var regionalFormat = RegionalFormat.standard
    /// Holds the compiled catalogs, gettext's layout: DIR/LANG/LC_MESSAGES/teller.mo.
    public var localeDirectory = "/usr/share/locale"
    public var grabInput = false

    // Session
    public var idleLockSeconds: Double = 120
    /// Argon2id hash of the technician PIN (`teller hash-pin`); nil disables diagnostics.
    public var technicianPINHash: String?
    /// The IANA zone from `time_zone`; nil keeps the system's (`TZ`, /etc/localtime).
    public var timeZone: String?

    // Limits, in the terminal currency's major units
    public var currency = Currency.eur
    public var limitPerTransaction: ConfiguredAmount = 10_000
    public var limitDaily: ConfiguredAmount = 50_000
    public var limitOfflinePerTransaction: ConfiguredAmount = 2_000
    public var limitOfflineQueuedTotal: ConfiguredAmount = 10_000
    public var maxOfflineAgeHours: Double = 72
    /// Staff numbers who may approve what a counter limit or a till's tolerance refuses.
    public var supervisors: [OperatorID] = []
    /// The notes and coins tills are counted in (major units); empty: the currency's built-in table.
    public var tillDenominations: [ConfiguredAmount] = []
    /// How far a till's closing count may be off without a supervisor.
    public var tillTolerance: ConfiguredAmount = 0

    // Receipt printer
    /// Where the ESC/POS printer is; nil prints nothing.
    public var printer: PrinterAddress?
    public var printerPaper = PaperWidth.millimetres80
    /// Receipts each payment prints while a printer is configured; the second is marked COPY.
    public var receiptCopies = 1
    /// While the terminal is online, how long a customer's receipt waits
    /// for the bank's answer before it prints (it prints at once offline).
    public var receiptWait: TimeInterval = 3
    /// The bank's name at the top of every receipt; empty prints none.
    public var bankName = ""

    // Scheduling
    /// The real-time priority (SCHED_RR) of the thread that reads input and
    /// draws every frame, so a tap is drawn at once however busy the other
    /// threads and processes are; 0 leaves it to ordinary scheduling.
    public var framePriority = defaultFramePriority
    public static let defaultFramePriority: Int32 = 5
    /// 0 to 20: the highest stays well below the kernel's interrupt threads (50).
    public static let framePriorityRange: ClosedRange<Int32> = 0...20

    /// The file's default location.
    public static let defaultPath = "/etc/teller/teller.conf"

    /// The limits in the terminal currency.
    /// - Throws: ``LimitsError`` naming the key.
    public func limits() throws -> Limits {
        try Limits(
            currency: currency,
            perTransaction: limitPerTransaction.money(in: currency), dailyPerTerminal: limitDaily.money(in: currency),
            perOfflineTransaction: limitOfflinePerTransaction.money(in: currency),
            offlineQueuedTotal: limitOfflineQueuedTotal.money(in: currency),
            maxOfflineAge: maxOfflineAgeHours * 3600)
    }

    /// How tills are counted: `till_denominations` (or the currency's own
    /// table) and `till_tolerance`. load(text:file:) has refused a list
    /// that does not fit the currency.
    public func tillSettings() -> TillSettings {
        let standard = TillSettings.standard(for: currency)
        let listed = tillDenominations.map { $0.money(in: currency).minorUnits }
        let table = listed.isEmpty ? standard.denominations : (try? DenominationTable(currency: currency, denominations: listed)) ?? standard.denominations
        return TillSettings(denominations: table, tolerance: tillTolerance.money(in: currency))
    }
}

extension Configuration {
    /// Reads `path` over the defaults. A missing file is an error only when
    /// `required` (an explicit --config).
    /// - Returns: the configuration and every problem found, each with its line.
    public static func load(path: String, required: Bool) -> (Configuration, [ConfigurationProblem]) {
        switch ConfigurationFile.read(path, required: required) {
        case .failure(let problem): (Configuration(), [problem])
        case .success(let text): load(text: text ?? "", file: path)
        }
    }

    /// Reads `text`, the contents of `file`, over the defaults: every key's
    /// own rule, then the rules between keys (decimals per currency, the
    /// order of the limits).
    /// - Returns: the configuration and every problem found, each with its line.
    public static func load(text: String, file path: String) -> (Configuration, [ConfigurationProblem]) {
        var configuration = Configuration()
        let (entries, syntax) = ConfigurationFile.parse(text, file: path)
        var problems = syntax
        var seen: [String: Int] = [:]
        for entry in entries {
            if let first = seen[entry.key] {
                problems.append(ConfigurationProblem(file: path, line: entry.line, message: "'\(entry.key)' is set again (first on line \(first))"))
                continue
            }
            seen[entry.key] = entry.line
            guard let key = keys[entry.key] else {
                problems.append(ConfigurationProblem(file: path, line: entry.line, message: "unknown key '\(entry.key)'\(suggestion(for: entry.key))"))
                continue
            }
            if let message = key.apply(entry.value, &configuration) {
                problems.append(ConfigurationProblem(file: path, line: entry.line, message: "\(entry.key): \(message)"))
            }
        }
        for (key, amount) in [("limit_per_transaction", configuration.limitPerTransaction), ("limit_daily", configuration.limitDaily),
                              ("limit_offline_per_transaction", configuration.limitOfflinePerTransaction),
                              ("limit_offline_queued_total", configuration.limitOfflineQueuedTotal)] where !amount.fits(configuration.currency) {
            problems.append(ConfigurationProblem(file: path, line: seen[key] ?? 0, message: "\(key): has more decimals than \(configuration.currency.code) allows (\(configuration.currency.exponent))"))
        }
        for (key, amount) in [("till_tolerance", configuration.tillTolerance)] + configuration.tillDenominations.map({ ("till_denominations", $0) })
            where !amount.fits(configuration.currency) {
            problems.append(ConfigurationProblem(file: path, line: seen[key] ?? 0, message: "\(key): has more decimals than \(configuration.currency.code) allows (\(configuration.currency.exponent))"))
        }
        // The bank's till events carry at most 64 denominations of at most 9 digits (docs/host-api.md §11).
        if configuration.tillDenominations.count > 64 {
            problems.append(ConfigurationProblem(file: path, line: seen["till_denominations"] ?? 0,
                                                 message: "till_denominations: \(configuration.tillDenominations.count) values; at most 64"))
        }
        if let large = configuration.tillDenominations.first(where: { $0.money(in: configuration.currency).minorUnits > 999_999_999 }) {
            problems.append(ConfigurationProblem(file: path, line: seen["till_denominations"] ?? 0,
                                                 message: "till_denominations: \(large.money(in: configuration.currency).decimalString) is larger than any note (at most 999999999 minor units)"))
        }
        if configuration.tillDenominations.isEmpty, DenominationTable.standard(for: configuration.currency) == nil {
            problems.append(ConfigurationProblem(file: path, line: seen["currency"] ?? 0,
                                                 message: "till_denominations: \(configuration.currency.code) has no built-in table of notes and coins; list them, e.g. till_denominations = 500 100 50 10 5 1"))
        }
        do {
            _ = try configuration.limits()
        } catch {
            problems.append(ConfigurationProblem(file: path, line: seen["limit_offline_per_transaction"] ?? seen["limit_per_transaction"] ?? 0, message: "limits: \(error)"))
        }
        return (configuration, problems)
    }

    /// What `teller run` refuses when it builds the host connection
    /// (LiveData), beyond the keys' own rules: a host without a terminal id,
    /// and a URL or pin the connection refuses. check-config and
    /// `teller config set` report these with the file's own problems.
    /// - Parameter readingFiles: also read ca_file, client_cert and
    ///   client_key (check-config). `teller config set` does not: the files
    ///   may come after the setting (deploy/provision installs them), and
    ///   the sealed key is the service's alone.
    public func startProblems(file path: String, readingFiles: Bool = true) -> [ConfigurationProblem] {
        guard let url = hostURL else { return [] }
        var problems: [ConfigurationProblem] = []
        if terminalID == nil {
            problems.append(ConfigurationProblem(file: path, line: 0, message: "host_url is set but terminal_id is not"))
        }
        do {
            _ = try hostConfiguration(url, loadingIdentity: readingFiles)
        } catch {
            problems.append(ConfigurationProblem(file: path, line: 0, message: "\(error)"))
        }
        guard readingFiles else { return problems }
        // The files the handshake reads, read now: libcurl would only say
        // "error setting certificate file" (curl 77) at the first attempt.
        if let caFile {
            do { _ = try CertificateFiles.checkBundle(caFile) } catch {
                problems.append(ConfigurationProblem(file: path, line: 0, message: "ca_file: \(error)"))
            }
        }
        // The pair loaded (hostConfiguration said what was wrong if not); now its dates, and whose it is:
        // another terminal's certificate is refused by the host on every request (certificate_terminal_mismatch).
        if let clientCertificate, let identity = try? clientIdentity() {
            do { _ = try CertificateFiles.checkBundle(clientCertificate) } catch {
                problems.append(ConfigurationProblem(file: path, line: 0, message: "client_cert: \(error)"))
            }
            if let terminalID, identity.certificate.subject != terminalID {
                problems.append(ConfigurationProblem(file: path, line: 0, message: "client_cert: \(clientCertificate) is the certificate of "
                    + "\(identity.certificate.subject), not of this terminal (terminal_id = \(terminalID)); install its own (teller identity csr)"))
            }
        }
        return problems
    }

    /// " (did you mean …?)" with known keys that start like `key`, or nothing.
    public static func suggestion(for key: String) -> String {
        let close = keys.keys.filter { $0.hasPrefix(String(key.prefix(4))) }.sorted()
        return close.isEmpty ? "" : " (did you mean \(close.prefix(3).joined(separator: ", "))?)"
    }
}

extension Configuration {
    /// The host connection's settings from the configured keys.
    /// - Throws: ``HostError`` for a URL or pin the terminal refuses.
    /// - Parameter loadingIdentity: false checks only the rules of the
    ///   client_cert and client_key keys, and reads neither file.
    public func hostConfiguration(_ url: URL, loadingIdentity: Bool = true) throws(HostError) -> HostConfiguration {
        try checkClientIdentityKeys()
        return try HostConfiguration(baseURL: url, allowInsecureHTTP: allowInsecureHTTP, requestTimeout: requestTimeout,
                                     caFile: caFile, hostPinSHA256: hostPinSHA256, clientIdentity: loadingIdentity ? clientIdentity() : nil)
    }

    /// client_key needs client_cert, and a client certificate needs https.
    private func checkClientIdentityKeys() throws(HostError) {
        if clientCertificate == nil, clientKey != nil { throw .tls("client_key is set but client_cert is not") }
        if clientCertificate != nil, hostURL?.scheme?.lowercased() != "https" { throw .tls("client_cert is set but host_url is not https") }
    }

    /// What `client_cert` holds, for status, metrics and diagnostics; nil
    /// when none is set or it cannot be read (check-config names why).
    public func clientCertificateStatus() -> ClientCertificateStatus? {
        guard let clientCertificate,
              let leaf = try? CertificateFiles.certificates(inPEM: CertificateFiles.read(clientCertificate), source: clientCertificate).first else { return nil }
        return leaf.status(warnDays: clientCertificateWarnDays)
    }

    /// The terminal's certificate and key when `client_cert` is set.
    /// - Throws: ``HostError/tls(_:)`` naming the key and the fault (a
    ///   missing file, no certificate, a key that does not belong to it).
    public func clientIdentity(environment: [String: String] = ProcessInfo.processInfo.environment) throws(HostError) -> ClientIdentity? {
        try checkClientIdentityKeys()
        guard let clientCertificate else { return nil }
        do {
            return try ClientIdentity.load(certificate: clientCertificate, keyFile: clientKey,
                                           givenKey: givenClientKey.map { ($0, "the key on standard input") }, environment: environment)
        } catch {
            throw .tls("\(Self.faultyKey(error, certificate: clientCertificate)): \(error)")
        }
    }

    /// The one key whose file is at fault: `client_cert` when its file is,
    /// `client_key` for the key (missing, unreadable, too open, not a key,
    /// not the certificate's).
    static func faultyKey(_ error: CertificateFileError, certificate: String) -> String {
        switch error {
        case .missing(let path), .notRegularFile(let path), .unreadable(let path), .noCertificate(let path),
             .notYetValid(let path, _), .expired(let path, _):
            path == certificate ? "client_cert" : "client_key"
        case .noKey, .keyMismatch, .tooOpen: "client_key"
        }
    }
}

extension Configuration {
    /// The receipts each payment queues: `receipt_copies` with a printer, none without.
    public var receiptsPerPayment: Int { printer == nil ? 0 : receiptCopies }
}
