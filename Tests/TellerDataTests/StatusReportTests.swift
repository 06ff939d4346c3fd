@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
import ProcessTestSupport

/// `teller status` as monitoring and `deploy/diagnose` read it: the same
/// keys whatever the code calls the states, and a row in a state this
/// Teller does not know is an error that names it, never counted or dropped
/// silently.
@Suite(.tags(.realProcess)) struct StatusReportTests {
    let directory = TemporaryDirectory("teller-status-report")

    /// A data directory whose rows are in `states`, one row each, in order,
    /// written as any other Teller (or a damaged file) could have left them.
    /// - Parameter tills: tills opened there, each queueing its opening for the bank.
    func dataDirectory(states: [String], tills: Int = 0) async throws -> String {
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        let store = try TellerStore(path: (data as NSString).appendingPathComponent(TellerStore.fileName), limits: Fixtures.limits)
        for (index, state) in states.enumerated() {
            let entry = try await store.enqueue(Fixtures.deposit(Int64(100 * (index + 1))))
            try await store.withDatabase { database in
                // The schema's CHECK refuses states it does not list; a newer or damaged file need not have it.
                try database.execute("PRAGMA ignore_check_constraints = ON")
                try database.run("UPDATE outbox SET state = ?, reason = 'account_blocked' WHERE id = ?", [.text(state), .integer(entry.id)])
            }
        }
        for index in 0..<tills {
            _ = try await store.open(by: try #require(OperatorID("100\(index + 1)")), count: TillCount(currency: .eur, pieces: [5000: 2]))
        }
        return data
    }

    @Test func everyStateIsCountedUnderItsStoredName() async throws {
        let data = try await dataDirectory(states: ["queued", "queued", "sending", "confirmed", "rejected", "needsReview"], tills: 2)
        let result = try await TellerStatusProcess.run(dataDirectory: data)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(Set(json.keys) == ["sync_problem", "needs_review", "database", "counts", "pending_count", "pending",
                                   "oldest_queued_age_seconds", "unacknowledged_rejections", "unacknowledged_reviews",
                                   "till_events_queued", "version", "terminal_id", "clock_verified", "client_certificate", "retention"])
        // Nothing removed yet: every count 0, no time, nothing held back.
        let retention = try #require(json["retention"] as? [String: Any])
        #expect(retention["last_removal"] is NSNull && retention["held_back"] is NSNull)
        #expect((retention["removed"] as? [String: Int]) == ["outbox": 0, "tills": 0, "till_events": 0, "print_jobs": 0, "journal": 0])
        // No client_cert configured: null, not a stale or made-up certificate.
        #expect(json["client_certificate"] is NSNull)
        // What a fleet's facts read (deploy/ansible): the version as `teller --version` prints it, the clock's state.
        #expect((json["version"] as? String)?.isEmpty == false)
        #expect(json["clock_verified"] is Bool)
        let counts = try #require(json["counts"] as? [String: Int], "\(json)")
        #expect(counts == ["queued": 2, "sending": 1, "confirmed": 1, "rejected": 1, "needsReview": 1, "voided": 0])
        #expect(json["pending_count"] as? Int == 3)
        #expect((json["needs_review"] as? [Any])?.count == 1)
        #expect(json["till_events_queued"] as? Int == 2, "two tills opened, neither opening at the bank")
    }

    @Test func anEmptyOutboxStillListsEveryState() async throws {
        let data = try await dataDirectory(states: [])
        let result = try await TellerStatusProcess.run(dataDirectory: data)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        // Version 5's voided rows are a new key; every key before it is still there.
        #expect(json["counts"] as? [String: Int] == ["queued": 0, "sending": 0, "confirmed": 0, "rejected": 0, "needsReview": 0, "voided": 0])
    }

    @Test func anUnknownStateIsNamedNotCountedOrDropped() async throws {
        let data = try await dataDirectory(states: ["queued", "archived"])
        let result = try await TellerStatusProcess.run(dataDirectory: data)
        #expect(result.status == 1, "stdout: \(result.stdout)")
        #expect(result.stderr.contains("'archived'"), "stderr does not name the state: \(result.stderr)")
        #expect(result.stdout.isEmpty, "a report was printed: \(result.stdout)")
    }
}
