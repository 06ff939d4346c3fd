@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import SQLite
import ProcessTestSupport

/// `teller journal verify` and `teller journal export` as a technician runs
/// them: the real executable on a real data directory, read-only.
@Suite(.tags(.realProcess)) struct JournalCommandTests {
    let directory = TemporaryDirectory("teller-journal-command")

    /// Runs `teller journal ARGUMENTS --data-dir DATA` with an empty configuration.
    func teller(_ arguments: [String], data: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        let configFile = directory.file("teller.conf")
        if !FileManager.default.fileExists(atPath: configFile) { try Data().write(to: URL(fileURLWithPath: configFile)) }
        return try await ChildProcess.run(TestProducts.executable("teller"),
                                          ["journal"] + arguments + ["--config", configFile, "--data-dir", data])
    }

    /// A data directory with a sign-in at 21:30 UTC and three deposits from
    /// 22:10 UTC on: one UTC day, but in UTC+2 (Etc/GMT-2) the sign-in is at
    /// 23:30 and the deposits on the next day.
    func dataDirectory() async throws -> (path: String, deposits: [OutboxEntry]) {
        let data = directory.file("data")
        let start = Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 21.5 * 3600)
        let clock = FixedClock(start)
        let store = try TellerStore(dataDirectory: data, limits: Fixtures.limits, clock: clock, zone: .utc)
        _ = try await store.append(.signIn(Fixtures.operatorID, mode: .online))
        clock.advance(40 * 60)
        var deposits: [OutboxEntry] = []
        for amount in [1_000, 2_000, 3_000] as [Int64] {
            deposits.append(try await store.enqueue(Fixtures.deposit(amount)))
            clock.advance(60)
        }
        return (data, deposits)
    }

    func files(_ data: String) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: data) {
            contents[name] = try Data(contentsOf: URL(fileURLWithPath: (data as NSString).appendingPathComponent(name)))
        }
        return contents
    }

    @Test func verifySaysOkAndWritesNothing() async throws {
        let (data, _) = try await dataDirectory()
        let before = try files(data)
        let result = try await teller(["verify"], data: data)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok: 4 entries\n")
        #expect(try files(data) == before, "teller journal verify wrote to the data directory")
    }

    /// After retention: from which entry the walk began and which
    /// checkpoint carried the chain there; status counts what was removed.
    @Test func verifySaysFromWhichCheckpointItVerifiedAfterRetention() async throws {
        let data = directory.file("pruned")
        let clock = SyntheticHistory.Clock(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01
        let store = try TellerStore(dataDirectory: data, limits: try SyntheticHistory.limits, clock: clock, zone: .utc)
        _ = try await SyntheticHistory(store: store, clock: clock).write(days: 92, paymentsPerDay: 2)
        while try await !store.pruneStep(retentionDays: 90, batch: 500).isDone {}
        guard case .intact(let count, let carry?) = try await store.verifyJournal() else { Issue.record("not pruned"); return }
        let result = try await teller(["verify"], data: data)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok: \(count) entries from sequence \(carry.first): the checkpoint of 2026-04-03 (entry \(carry.checkpoint)) "
                + "carries the chain over the \(carry.pruned) entries retention removed before it\n")
        let status = try await TellerStatusProcess.run(dataDirectory: data)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout) \(status.stderr)")
        let retention = try #require(json["retention"] as? [String: Any])
        #expect((retention["removed"] as? [String: Int])?["journal"] == Int(carry.pruned))
        #expect((retention["last_removal"] as? String)?.hasPrefix("2026-04-03") == true, "\(retention)")
    }

    /// One day's links, whatever came before: the days before are not walked,
    /// so a change there is not this check's to find, and one inside it is.
    @Test func verifyOfOneDayChecksThatDaysLinksOnly() async throws {
        let data = directory.file("days")
        let clock = SyntheticHistory.Clock(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01
        let store = try TellerStore(dataDirectory: data, limits: try SyntheticHistory.limits, clock: clock, zone: .utc)
        _ = try await SyntheticHistory(store: store, clock: clock).write(days: 5, paymentsPerDay: 3)
        let third = try await store.journalEntries(onLocalDay: "2026-01-03")
        let first = try #require(third.first?.sequence)
        let last = try #require(third.last?.sequence)
        #expect(third.count > 5 && Int(last - first) + 1 == third.count)
        let firstDay = try #require(try await store.journalEntries(onLocalDay: "2026-01-01").first?.sequence)
        let ok = "ok: \(third.count) entries of 2026-01-03 (sequence \(first) to \(last)), each linked to the one before; "
            + "the days before it were not walked (teller journal verify walks them all)\n"
        let day = try await teller(["verify", "--day", "2026-01-03"], data: data)
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout == ok)
        #expect(try await teller(["verify", "--day", "2025-12-31"], data: data).stdout == "ok: no entries on 2025-12-31\n")
        #expect(try await teller(["verify", "--day", "2026-02-30x"], data: data).status == 2)

        let database = try Database(path: (data as NSString).appendingPathComponent(TellerStore.fileName))
        try database.execute("DROP TRIGGER journal_never_updated")
        try database.run("UPDATE journal SET payload = payload || ' ' WHERE sequence = ?", [.integer(firstDay)])
        #expect(try await teller(["verify", "--day", "2026-01-03"], data: data).stdout == ok, "a change on another day")
        #expect(try await teller(["verify"], data: data).status == 1)
        try database.run("UPDATE journal SET payload = payload || ' ' WHERE sequence = ?", [.integer(first + 1)])
        let broken = try await teller(["verify", "--day", "2026-01-03"], data: data)
        #expect(broken.status == 1)
        #expect(broken.stdout == "broken: entry \(first + 1): hash mismatch: its contents were changed after it was written\n")
    }

    @Test func verifyNamesTheEntryWithOneChangedByteAndExits1() async throws {
        let (data, _) = try await dataDirectory()
        do {
            let database = try Database(path: (data as NSString).appendingPathComponent(TellerStore.fileName))
            try database.execute("DROP TRIGGER journal_never_updated")
            try database.execute("UPDATE journal SET payload = replace(payload, '\"amount\":2000', '\"amount\":2009') WHERE sequence = 3")
        }
        let result = try await teller(["verify"], data: data)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout == "broken: entry 3: hash mismatch: its contents were changed after it was written\n")
    }

    @Test func exportWritesTheLocalDayAsJSONLines() async throws {
        let (data, deposits) = try await dataDirectory()
        let start = Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 21.5 * 3600)
        func day(_ date: Date) -> String {
            let t = LocalTime(date, in: .fixed(secondsEastOfUTC: 7200))
            return "\(t.year.zeroPadded(4))-\(t.month.zeroPadded(2))-\(t.day.zeroPadded(2))"
        }
        let next = try await teller(["export", "--day", day(deposits[0].createdAt), "--time-zone", "Etc/GMT-2"], data: data)
        #expect(next.status == 0, "\(next.stderr)")
        let lines = next.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(next.stdout)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(first.keys) == ["sequence", "time_ms", "time", "kind", "operator_id", "supervisor_id", "payload", "prev_hash", "hash"])
        #expect(first["sequence"] as? Int == 2)
        #expect(first["kind"] as? String == "payment_enqueued")
        #expect((first["payload"] as? [String: Any])?["key"] as? String == deposits[0].key.rawValue)
        #expect((first["payload"] as? [String: Any])?["amount"] as? Int == 1000)
        let before = try await teller(["export", "--day", day(start), "--time-zone", "Etc/GMT-2"], data: data)
        #expect(before.stdout.split(separator: "\n").count == 1, "the sign-in at 23:30 local: \(before.stdout)")
        let empty = try await teller(["export", "--day", "2001-01-01"], data: data)
        #expect(empty.status == 0 && empty.stdout.isEmpty)
        let bad = try await teller(["export", "--day", "2026-13-01"], data: data)
        #expect(bad.status == 2)
        let missing = try await teller(["export"], data: data)
        #expect(missing.status == 2)
    }
}
