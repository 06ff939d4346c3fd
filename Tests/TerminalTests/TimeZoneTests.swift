import Foundation
import Testing
@testable import ProcessHarness

/// `time_zone` in teller.conf is the branch's wall clock: the terminal sets
/// `TZ` to it when it starts, so the status bar reads the zone's time,
/// daylight saving included, whatever zone the service was started in.
/// libfaketime moves the terminal's wall clock to the instants below.
@Suite(.serialized) struct TimeZoneTests {
    /// A zone, an instant, and what the clock may read from then to 90 s later.
    /// Half a minute in, because the fake clock starts within a second of it.
    static let cases: [(zone: String, utc: String, readings: [String])] = [
        // 2027-03-28 at 01:00 UTC Berlin's 02:00 CET becomes 03:00 CEST.
        ("Europe/Berlin", "2027-03-28T00:58:30Z", ["01:58", "01:59"]),
        ("Europe/Berlin", "2027-03-28T01:00:30Z", ["03:00", "03:01"]),
        // Winter in New York: five hours behind UTC.
        ("America/New_York", "2026-12-01T20:17:30Z", ["15:17", "15:18"]),
    ]

    @Test(arguments: cases.indices) func theStatusBarShowsTheConfiguredZone(_ index: Int) async throws {
        let (zone, utc, readings) = Self.cases[index]
        let terminal = try TerminalProcess(host: nil, configuration: ["time_zone = \(zone)"])
        // Relative, so the fake clock keeps running; after the build date, so the clock counts as set.
        let offset = Int(try Date(utc, strategy: .iso8601).timeIntervalSinceNow.rounded())
        // The zone the service inherited must not win over the configured one.
        try await terminal.start(fakeTime: offset < 0 ? "\(offset)" : "+\(offset)", environment: ["TZ": "Asia/Kolkata"])
        defer { terminal.child?.killNow() }
        let clock = try await terminal.label(of: "status.clock")
        #expect(clock.map(readings.contains) == true, "\(zone) at \(utc): the status bar reads \(clock ?? "nothing")")
    }

    /// A name tzdata does not have is refused, naming the key and the value,
    /// before a terminal could start on the wrong clock.
    @Test(arguments: ["Europe/Berlim", "europe/berlin", "Europe//Berlin", "../zoneinfo/UTC", "/usr/share/zoneinfo/UTC", "zone.tab", "leapseconds", "GMT+1"])
    func aZoneTzdataDoesNotHaveIsRefused(_ zone: String) async throws {
        let directory = TemporaryDirectory("teller-time-zone")
        let file = directory.file("teller.conf")
        try Data("time_zone = \(zone)\n".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ChildProcess.run(TestProducts.executable("teller"), ["check-config", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(file):1: time_zone: '\(zone)' is not an IANA time zone like Europe/Berlin"), "\(result.stdout)")
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "UTC", "Etc/GMT+5"])
    func aZoneTzdataHasIsAccepted(_ zone: String) async throws {
        let directory = TemporaryDirectory("teller-time-zone")
        let file = directory.file("teller.conf")
        try Data("time_zone = \(zone)\n".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ChildProcess.run(TestProducts.executable("teller"), ["check-config", file])
        #expect(result.status == 0, "\(result.stdout)")
    }
}

extension TerminalProcess {
    /// The label of the element `identifier` on screen, from the accessibility tree.
    func label(of identifier: String) async throws -> String? {
        func find(_ node: Any) -> String? {
            guard let node = node as? [String: Any] else { return nil }
            if node["identifier"] as? String == identifier { return node["label"] as? String }
            return (node["children"] as? [Any] ?? []).lazy.compactMap(find).first
        }
        return find(try await ctl("ui"))
    }
}
