import FoundationEssentials
import Glibc
import TellerCore
import Testing

/// LocalTime does its own Gregorian arithmetic (TellerCore has no libc);
/// it must read every instant as the C library's gmtime_r does.
@Suite struct LocalTimeArithmeticTests {
    @Test(arguments: [0, 3600, -9 * 3600, 19_800, 20_700])
    func agreesWithGmtimeFrom1900To2100(offset: Int) {
        // Every 7 hours and 13 minutes: each day of the year, each hour, over leap and century years, before 1970 too.
        var seconds = -2_208_988_800
        var checked = 0
        while seconds < 4_102_444_800 {
            let reading = LocalTime(Date(timeIntervalSince1970: Double(seconds)), in: .fixed(secondsEastOfUTC: offset))
            var shifted = time_t(seconds + offset)
            var parts = tm()
            _ = gmtime_r(&shifted, &parts)
            let expected = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
            let actual = [reading.year, reading.month, reading.day, reading.hour, reading.minute, reading.second]
            if actual != expected {
                Issue.record("\(seconds) at \(offset): \(actual), gmtime_r says \(expected)")
                return
            }
            checked += 1
            seconds += 7 * 3600 + 13 * 60 + 7
        }
        #expect(checked > 200_000)
    }

    @Test func aClockAtZeroOrBeforeReadsTheRightDay() {
        #expect(LocalTime(Date(timeIntervalSince1970: 0), in: .utc) == LocalTime(year: 1970, 1, 1, 0, 0, 0))
        #expect(LocalTime(Date(timeIntervalSince1970: -1), in: .utc) == LocalTime(year: 1969, 12, 31, 23, 59, 59))
        #expect(LocalTime(Date(timeIntervalSince1970: -0.5), in: .utc) == LocalTime(year: 1969, 12, 31, 23, 59, 59))
    }
}

private extension LocalTime {
    init(year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) {
        self = LocalTime(Date(timeIntervalSince1970: 0), in: .utc)
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }
}
