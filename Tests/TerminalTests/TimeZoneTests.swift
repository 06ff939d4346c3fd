import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `time_zone` in teller.conf is the branch's wall clock: the terminal sets
/// `TZ` to it when it starts, so the status bar reads the zone's time,
/// daylight saving included, whatever zone the service was started in.
/// libfaketime moves the terminal's wall clock to the instants below.
@Suite(.serialized, .tags(.realProcess)) struct TimeZoneTests {
    /// A zone, an instant, and what the clock reads in its first minute:
    /// half a minute in, because the fake clock starts within a second of it.
    static let cases: [(zone: String, utc: String, reading: String)] = [
        // 2027-03-28 at 01:00 UTC Berlin's 02:00 CET becomes 03:00 CEST.
        ("Europe/Berlin", "2027-03-28T00:58:30Z", "01:58"),
        ("Europe/Berlin", "2027-03-28T01:00:30Z", "03:00"),
        // Winter in New York: five hours behind UTC.
        ("America/New_York", "2026-12-01T20:17:30Z", "15:17"),
    ]

    @Test(arguments: cases.indices) func theStatusBarShowsTheConfiguredZone(_ index: Int) async throws {
        let (zone, utc, reading) = Self.cases[index]
        let terminal = try TerminalProcess(host: nil, configuration: ["time_zone = \(zone)"])
        let instant = try Date(utc, strategy: .iso8601)
        // Relative, so the fake clock keeps running; after the build date, so the clock counts as set.
        let asked = ContinuousClock.now
        let offset = Int(instant.timeIntervalSinceNow.rounded())
        // The zone the service inherited must not win over the configured one.
        try await terminal.start(fakeTime: offset < 0 ? "\(offset)" : "+\(offset)", environment: ["TZ": "Asia/Kolkata"])
        defer { terminal.child?.killNow() }
        let clock = try await terminal.label(of: "status.clock")
        // A loaded machine may take more than a minute to start the terminal
        // and read its screen: the clock may read any minute the fake clock
        // passed meanwhile, as Foundation's tzdata words it (a second oracle;
        // the table's first minute pins it to the hand-checked reading).
        let readings = Self.minutes(in: zone, from: instant, for: ContinuousClock.now - asked)
        #expect(readings.first == reading, "Foundation reads \(zone) at \(utc) as \(readings.first ?? "nothing")")
        #expect(clock.map(readings.contains) == true, "\(zone) at \(utc): the status bar reads \(clock ?? "nothing"), not one of \(readings)")
    }

    /// The wall clock's HH:mm in `zone` from `start` to `elapsed` (and a second) later, in order.
    static func minutes(in zone: String, from start: Date, for elapsed: Duration) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "HH:mm"
        let end = start.addingTimeInterval(Double(elapsed.components.seconds) + 1)
        var readings: [String] = []
        for instant in Array(stride(from: start, through: end, by: 10)) + [end] {
            let minute = formatter.string(from: instant)
            if readings.last != minute { readings.append(minute) }
        }
        return readings
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
