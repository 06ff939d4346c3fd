import FoundationEssentials
import TellerCore

extension TellerStore {
    /// The outbox as monitoring reads it. Only reads: a store opened
    /// ``init(readingOnly:limits:)`` answers it too.
    public func report() throws(TellerError) -> OutboxReport {
        let summary = try summary()
        let review = try needsReviewEntries()
        let problem = try recordedProblem()
        let lastConfirmed = try translating { try outbox.lastConfirmedAt() }
        return OutboxReport(summary: summary, needsReview: review, problem: problem, lastConfirmedAt: lastConfirmed,
                            tillEventsQueued: try queuedTillEventCount(), retention: try retentionReport())
    }
}

extension TerminalMetrics {
    /// The metrics of `report`, as measured at `now`.
    /// - Parameter clockVerified: the ``TrustedClock``'s verdict.
    public init(_ report: OutboxReport, terminalID: String?, version: String, clockVerified: Bool, now: Date,
                clientCertificate: ClientCertificateStatus? = nil) {
        self.init(terminalID: terminalID, version: version, summary: report.summary, needsReviewCount: report.needsReview.count,
                  lastConfirmedAt: report.lastConfirmedAt, problem: report.problem?.kind, clockVerified: clockVerified, now: now,
                  tillEventsQueued: report.tillEventsQueued, clientCertificate: clientCertificate, retention: report.retention)
    }
}
