import FoundationEssentials

/// What a fleet's monitoring watches on one terminal, read at one instant:
/// the facts `teller status` reports, as numbers and bounded labels. Its
/// ``exposition`` is Prometheus' text format, which node_exporter's
/// textfile collector serves (docs/deploy.md, "Fleet: metrics").
///
/// No label carries free text or anything a customer owns: the terminal id
/// (validated by teller.conf), the version, ISO 4217 codes and the fixed
/// problem kinds only.
public struct TerminalMetrics: Hashable, Sendable {
    public var terminalID: String?
    public var version: String
    public var summary: QueueSummary
    /// Rows in `needsReview`, acknowledged or not: each is money whose fate a person has to find out.
    public var needsReviewCount: Int
    /// When the bank last confirmed a row, or nil when it never has.
    public var lastConfirmedAt: Date?
    /// Why rows are not going out, or nil when nothing is wrong.
    public var problem: SyncProblem.Kind?
    public var clockVerified: Bool
    /// The instant ages are measured to.
    public var now: Date
    /// Till openings and closings not yet recorded by the bank.
    public var tillEventsQueued: Int
    /// The terminal's certificate for mutual TLS; nil when none is configured.
    public var clientCertificate: ClientCertificateStatus?
    /// What retention has removed so far.
    public var retention: RetentionReport

    public init(terminalID: String?, version: String, summary: QueueSummary, needsReviewCount: Int, lastConfirmedAt: Date?,
                problem: SyncProblem.Kind?, clockVerified: Bool, now: Date, tillEventsQueued: Int = 0,
                clientCertificate: ClientCertificateStatus? = nil, retention: RetentionReport = RetentionReport()) {
        self.clientCertificate = clientCertificate
        self.retention = retention
        self.terminalID = terminalID
        self.version = version
        self.summary = summary
        self.needsReviewCount = needsReviewCount
        self.lastConfirmedAt = lastConfirmedAt
        self.problem = problem
        self.clockVerified = clockVerified
        self.now = now
        self.tillEventsQueued = tillEventsQueued
    }

    /// The metrics in the Prometheus text exposition format (version 0.0.4),
    /// each family with its HELP and TYPE lines, ending in a newline.
    public var exposition: String {
        var text = PrometheusText(commonLabels: terminalID.map { [("terminal_id", $0)] } ?? [])
        text.family("teller_build_info", help: "The running Teller's version; always 1.") {
            $0.sample(labels: [("version", version)], 1)
        }
        text.family("teller_outbox_queued_rows", help: "Transactions not yet at the bank (queued or sending).") {
            $0.sample(Int64(summary.pendingCount))
        }
        text.family("teller_outbox_queued_amount_minor_units",
                    help: "Money not yet at the bank, per currency, in the currency's minor units (cents for EUR); no sample for a currency with nothing queued.") {
            for (currency, money) in summary.pendingByCurrency.sorted(by: { $0.key.code < $1.key.code }) {
                $0.sample(labels: [("currency", currency.code)], money.minorUnits)
            }
        }
        text.family("teller_outbox_oldest_queued_age_seconds", help: "Seconds since the oldest transaction not yet at the bank was taken; 0 when none waits.") {
            $0.sample(summary.oldestQueuedAt.map { Int64(max(0, now.timeIntervalSince($0)).rounded(.down)) } ?? 0)
        }
        text.family("teller_outbox_needs_review_rows", help: "Transactions stopped for a person to look at (teller status lists them).") {
            $0.sample(Int64(needsReviewCount))
        }
        text.family("teller_till_events_queued", help: "Till openings and closings not yet recorded by the bank.") {
            $0.sample(Int64(tillEventsQueued))
        }
        if let lastConfirmedAt {
            text.family("teller_last_sync_timestamp_seconds", help: "When the bank last confirmed a transaction from this terminal, in unix seconds; absent when it never has.") {
                $0.sample(Int64(lastConfirmedAt.timeIntervalSince1970.rounded(.down)))
            }
        }
        text.family("teller_retention_removed_rows_total", kind: .counter,
                    help: "Rows retention removed after retention_days, once the bank had settled them, by table (outbox, tills, till_events, print_jobs, journal).") {
            for (table, count) in [("journal", retention.pruned.journalEntries), ("outbox", retention.pruned.outboxRows),
                                   ("print_jobs", retention.pruned.printJobs), ("till_events", retention.pruned.tillEvents),
                                   ("tills", retention.pruned.tills)] {
                $0.sample(labels: [("table", table)], Int64(count))
            }
        }
        if let lastPrunedAt = retention.lastPrunedAt {
            text.family("teller_retention_last_removal_timestamp_seconds", help: "When retention last removed anything, in unix seconds; absent when it never has.") {
                $0.sample(Int64(lastPrunedAt.timeIntervalSince1970.rounded(.down)))
            }
        }
        text.family("teller_sync_problem", help: "Why transactions are not going out: 1 for the current kind (kind=\"none\" when nothing is wrong), 0 for every other kind.") {
            for kind in ["none"] + SyncProblem.Kind.allCases.map(\.rawValue) {
                $0.sample(labels: [("kind", kind)], kind == (problem?.rawValue ?? "none") ? 1 : 0)
            }
        }
        text.family("teller_clock_verified", help: "1 when the terminal trusts its clock, 0 when the status bar says \"Clock not set\".") {
            $0.sample(clockVerified ? 1 : 0)
        }
        if let certificate = clientCertificate {
            text.family("teller_client_certificate_expiry_timestamp_seconds", help: "When the terminal's client certificate (client_cert) expires, in unix seconds.") {
                $0.sample(Int64(certificate.notAfter.timeIntervalSince1970))
            }
            text.family("teller_client_certificate_renewal_due",
                        help: "1 when the client certificate expires within client_cert_warn_days or is not valid now; renew it (teller identity csr).") {
                $0.sample(certificate.needsRenewal(at: now) ? 1 : 0)
            }
        }
        return text.text
    }
}

/// Builds the text exposition format: gauges only, integer values, label
/// values escaped as the format requires.
struct PrometheusText {
    let commonLabels: [(String, String)]
    private(set) var text = ""

    struct Family {
        let name: String
        let commonLabels: [(String, String)]
        var lines: [String] = []

        mutating func sample(labels: [(String, String)] = [], _ value: Int64) {
            let all = (commonLabels + labels).sorted { $0.0 < $1.0 }
            let rendered = all.isEmpty ? "" : "{" + all.map { "\($0.0)=\"\(PrometheusText.escaped($0.1))\"" }.joined(separator: ",") + "}"
            lines.append("\(name)\(rendered) \(value)")
        }
    }

    /// What a family's samples are: a gauge goes up and down; a counter only
    /// goes up (from the database, so it also survives a restart), and its
    /// name ends in `_total`.
    enum Kind: String { case gauge, counter }

    mutating func family(_ name: String, kind: Kind = .gauge, help: String, _ samples: (inout Family) -> Void) {
        precondition((kind == .counter) == name.hasSuffix("_total"), "\(name): a counter's name, and only a counter's, ends in _total")
        var family = Family(name: name, commonLabels: commonLabels)
        samples(&family)
        text += "# HELP \(name) \(PrometheusText.escaped(help, quotes: false))\n"
        text += "# TYPE \(name) \(kind.rawValue)\n"
        text += family.lines.map { $0 + "\n" }.joined()
    }

    /// A label value (or, without `quotes`, a HELP text) as the format
    /// writes it: backslash, newline and double quote escaped.
    static func escaped(_ value: String, quotes: Bool = true) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where quotes: escaped += "\\\""
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
