@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData

/// The metrics file as node_exporter serves it, from real outboxes on disk:
/// every family with HELP and TYPE, exact values, bounded labels.
@Suite struct MetricsExpositionTests {
    let directory = TemporaryDirectory("teller-metrics")

    /// A store on a real file whose clock stands at `Fixtures.noon`.
    func store() throws -> (TellerStore, FixedClock) {
        let clock = FixedClock(Fixtures.noon)
        return (try TellerStore(path: directory.file(TellerStore.fileName), limits: Fixtures.limits, clock: clock), clock)
    }

    func lines(_ metrics: TerminalMetrics) -> [String] {
        metrics.exposition.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The client certificate's expiry, and the renewal flag that turns
    /// on `client_cert_warn_days` before it: off at 31 days with 30, on at
    /// 29, on once expired; absent without a certificate.
    @Test func theClientCertificatesExpiryAndRenewalAreExposed() async throws {
        let (store, clock) = try store()
        let report = try await store.report()
        func metrics(daysLeft: Double) -> [String] {
            let certificate = ClientCertificateStatus(subject: "T-7", issuer: "Bank CA", notBefore: clock.now() - 86_400 * 300,
                                                      notAfter: clock.now() + daysLeft * 86_400, warnDays: 30)
            return lines(TerminalMetrics(report, terminalID: "T-7", version: "1", clockVerified: true, now: clock.now(), clientCertificate: certificate))
        }
        let expiry = Int64((clock.now() + 31 * 86_400).timeIntervalSince1970)
        #expect(metrics(daysLeft: 31).contains("teller_client_certificate_expiry_timestamp_seconds{terminal_id=\"T-7\"} \(expiry)"))
        #expect(metrics(daysLeft: 31).contains(#"teller_client_certificate_renewal_due{terminal_id="T-7"} 0"#))
        #expect(metrics(daysLeft: 29).contains(#"teller_client_certificate_renewal_due{terminal_id="T-7"} 1"#))
        #expect(metrics(daysLeft: -1).contains(#"teller_client_certificate_renewal_due{terminal_id="T-7"} 1"#))
        let without = lines(TerminalMetrics(report, terminalID: "T-7", version: "1", clockVerified: true, now: clock.now()))
        #expect(!without.contains { $0.contains("client_certificate") })
    }

    @Test func aBusyOutboxIsCountedPerStateAndCurrency() async throws {
        let (store, clock) = try store()
        _ = try await store.enqueue(Fixtures.deposit(1250))
        clock.advance(600)
        _ = try await store.enqueue(Fixtures.deposit(250))
        let review = try await store.enqueue(Fixtures.deposit(7000))
        let confirmed = try await store.enqueue(Fixtures.deposit(99))
        let dollars = try await store.enqueue(Fixtures.deposit(500))
        try await store.markNeedsReview(review.id, reason: "unclear", problem: .mismatch)
        try await store.record(.posted(reference: "R-1", replayed: false), for: confirmed.id)
        try await store.withDatabase { database in
            try database.run("UPDATE outbox SET currency = 'USD' WHERE id = ?", [.integer(dollars.id)])
        }
        try await store.recordProblem(SyncProblem(kind: .tls, detail: "certificate expired", since: Fixtures.noon))
        let operatorID = try #require(OperatorID("1001"))
        _ = try await store.open(by: operatorID, count: TillCount(currency: .eur, pieces: [5000: 2]))
        _ = try await store.close(by: operatorID, count: TillCount(currency: .eur, pieces: [5000: 2]), approvedBy: nil)
        clock.advance(3600)

        let metrics = TerminalMetrics(try await store.report(), terminalID: "T-7", version: "1.2.3", clockVerified: false, now: clock.now())
        let text = lines(metrics)
        #expect(text.contains(#"teller_build_info{terminal_id="T-7",version="1.2.3"} 1"#))
        #expect(text.contains(#"teller_outbox_queued_rows{terminal_id="T-7"} 3"#))
        #expect(text.contains(#"teller_outbox_queued_amount_minor_units{currency="EUR",terminal_id="T-7"} 1500"#))
        #expect(text.contains(#"teller_outbox_queued_amount_minor_units{currency="USD",terminal_id="T-7"} 500"#))
        #expect(text.contains(#"teller_outbox_oldest_queued_age_seconds{terminal_id="T-7"} 4200"#))
        #expect(text.contains(#"teller_outbox_needs_review_rows{terminal_id="T-7"} 1"#))
        #expect(text.contains("teller_last_sync_timestamp_seconds{terminal_id=\"T-7\"} \(Int64((Fixtures.noon + 600).timeIntervalSince1970))"))
        #expect(text.contains(#"teller_sync_problem{kind="tls",terminal_id="T-7"} 1"#))
        #expect(text.contains(#"teller_sync_problem{kind="none",terminal_id="T-7"} 0"#))
        #expect(text.filter { $0.hasPrefix("teller_sync_problem{") }.count == SyncProblem.Kind.allCases.count + 1)
        #expect(text.filter { $0.hasPrefix("teller_sync_problem{") && $0.hasSuffix(" 1") }.count == 1)
        #expect(text.contains(#"teller_clock_verified{terminal_id="T-7"} 0"#))
        #expect(text.contains(#"teller_till_events_queued{terminal_id="T-7"} 2"#), "a till's opening and closing wait for the bank")
    }

    @Test func everyFamilyHasHelpAndTypeBeforeItsSamples() async throws {
        let (store, _) = try store()
        _ = try await store.enqueue(Fixtures.deposit(100))
        let text = lines(TerminalMetrics(try await store.report(), terminalID: nil, version: "1.2.3", clockVerified: true, now: Fixtures.noon))
        #expect(text.last == "", "the file does not end in a newline")
        var declared: [String] = []
        for (index, line) in text.enumerated() where line.hasPrefix("# HELP ") {
            let name = String(line.dropFirst("# HELP ".count).prefix { $0 != " " })
            #expect(name.hasPrefix("teller_"), "\(line)")
            // A counter's name ends in _total (promtool check metrics); every other family is a gauge.
            #expect(text[index + 1] == "# TYPE \(name) \(name.hasSuffix("_total") ? "counter" : "gauge")", "\(text[index + 1])")
            declared.append(name)
        }
        for line in text where !line.isEmpty && !line.hasPrefix("#") {
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            #expect(declared.contains(name), "\(name) has no HELP line")
        }
        #expect(!text.contains { $0.contains("terminal_id") }, "an unconfigured terminal id became a label")
    }

    @Test func anEmptyOutboxReportsZerosAndNoLastSync() async throws {
        let (store, _) = try store()
        let text = lines(TerminalMetrics(try await store.report(), terminalID: "T-7", version: "1.2.3", clockVerified: true, now: Fixtures.noon))
        #expect(text.contains(#"teller_outbox_queued_rows{terminal_id="T-7"} 0"#))
        #expect(text.contains(#"teller_outbox_oldest_queued_age_seconds{terminal_id="T-7"} 0"#))
        #expect(text.contains(#"teller_outbox_needs_review_rows{terminal_id="T-7"} 0"#))
        #expect(text.contains(#"teller_sync_problem{kind="none",terminal_id="T-7"} 1"#))
        #expect(text.contains(#"teller_clock_verified{terminal_id="T-7"} 1"#))
        #expect(text.contains(#"teller_till_events_queued{terminal_id="T-7"} 0"#))
        #expect(!text.contains { $0.hasPrefix("teller_outbox_queued_amount_minor_units{") })
        #expect(!text.contains { $0.hasPrefix("teller_last_sync_timestamp_seconds") })
    }

    @Test func labelValuesAreEscaped() throws {
        let summary = QueueSummary(countsByState: [:], pendingByCurrency: [:], oldestQueuedAt: nil, unacknowledgedRejections: 0)
        let metrics = TerminalMetrics(terminalID: nil, version: "1.0 \"rc\\1\"\nx", summary: summary, needsReviewCount: 0, lastConfirmedAt: nil,
                                      problem: nil, clockVerified: true, now: Fixtures.noon)
        #expect(lines(metrics).contains(#"teller_build_info{version="1.0 \"rc\\1\"\nx"} 1"#))
    }

    @Test func statusAndMetricsReadTheSameReport() async throws {
        let (store, _) = try store()
        let entry = try await store.enqueue(Fixtures.deposit(100))
        try await store.markNeedsReview(entry.id, reason: "unclear", problem: nil)
        let report = try await store.report()
        #expect(report.needsReview.map(\.key) == [entry.key])
        #expect(report.summary.countsByState[.needsReview] == 1)
        #expect(report.lastConfirmedAt == nil)
    }
}

/// The running terminal's file: atomic, readable by node_exporter, and
/// written at most once per interval however many changes arrive.
@Suite struct MetricsTextfileTests {
    let directory = TemporaryDirectory("teller-metrics-file")

    final class Renders: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [ContinuousClock.Instant] = []
        func next() -> Int { lock.withLock { times.append(.now); return times.count } }
        var total: Int { lock.withLock { times.count } }
        /// The shortest time between two renders; nil before the second.
        var shortestGap: Duration? { lock.withLock { zip(times, times.dropFirst()).map { $1 - $0 }.min() } }
    }

    @Test func aBurstOfChangesIsCoalescedAndTheLastIsWritten() async throws {
        let path = directory.file("teller.prom")
        let renders = Renders()
        let file = MetricsTextfile(path: path, minimumInterval: .seconds(2), render: { "teller_test \(renders.next())\n" },
                                   onFailure: { Issue.record("\($0)") })
        let start = ContinuousClock.now
        for _ in 0..<200 { await file.changed() }
        let firstBurst = ContinuousClock.now - start
        await file.settle()
        // The first change is written at once, and what arrives meanwhile at most once per interval after it.
        // Usually that is 2 writes; a write's fsync on a loaded disk holds the actor and can stretch the burst.
        #expect(renders.total <= 2 + Int(firstBurst / .seconds(2)), "\(renders.total) writes for one burst of \(firstBurst)")
        for _ in 0..<200 { await file.changed() }
        await file.settle()
        #expect(renders.total >= 2 && renders.total <= 4 + Int((ContinuousClock.now - start) / .seconds(2)),
                "\(renders.total) writes for two bursts")
        // Rendered when the write begins; the interval runs from just before it.
        let gap = try #require(renders.shortestGap)
        #expect(gap >= .milliseconds(1_950), "two writes \(gap) apart, less than the interval")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "teller_test \(renders.total)\n", "the last change was not written")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = try #require(attributes[.posixPermissions] as? Int)
        #expect(mode == 0o644)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == ["teller.prom"], "a temporary file was left behind")
    }

    @Test func aFileThatCannotBeWrittenIsReportedOnce() async throws {
        let failures = Renders()
        let file = MetricsTextfile(path: directory.file("missing/teller.prom"), minimumInterval: .milliseconds(10), render: { "x 1\n" },
                                   onFailure: { _ in _ = failures.next() })
        for _ in 0..<3 {
            await file.changed()
            await file.settle()
        }
        #expect(failures.total == 1)
    }
}
