import FoundationEssentials
import Glibc

/// What the clock on the branch's wall reads at an instant: the date and
/// time an operator expects to see on the screen and the receipt.
///
/// This is the one place the terminal turns an instant into local time.
/// The system zone goes through the C library's `localtime_r`, which reads
/// `TZ`, else /etc/localtime, with tzdata's rules, daylight saving included.
/// FoundationEssentials cannot do it: its `TimeZone.current` is GMT on
/// Linux, and the zones that know tzdata need Foundation's ICU.
public struct LocalTime: Hashable, Sendable {
    public var year: Int
    /// 1 for January to 12 for December.
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Seconds east of UTC in force at that instant: 3600 in CET, 7200 in CEST.
    public var utcOffset: Int

    /// Whose wall clock.
    public enum Zone: Hashable, Sendable {
        /// The terminal's own zone as the system configures it (`TZ`,
        /// /etc/localtime). What the running terminal shows, and the day
        /// its daily limit counts.
        case system
        /// A fixed offset east of UTC without daylight saving: UTC for the
        /// technician's instants, and tests that must not depend on the
        /// zone of the machine (or of a neighbouring test that sets `TZ`).
        case fixed(secondsEastOfUTC: Int)

        public static let utc = Zone.fixed(secondsEastOfUTC: 0)
    }

    /// The wall-clock reading of `date` in `zone`, to the whole second
    /// (rounded down, as a clock shows it).
    public init(_ date: Date, in zone: Zone) {
        let seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        switch zone {
        case .system:
            // glibc's localtime_r, unlike localtime, does not look at TZ
            // again; tzset does, and notices a replaced /etc/localtime, so a
            // technician's change of zone shows without a restart.
            tzset()
            var instant = seconds
            var parts = tm()
            guard localtime_r(&instant, &parts) != nil else { preconditionFailure("localtime_r: \(date) is out of range") }
            self.init(parts)
        case .fixed(let offset):
            self.init(utc: seconds, shiftedBy: offset)
        }
    }

    /// UTC's reading `offset` seconds later is the zone's reading now.
    private init(utc seconds: time_t, shiftedBy offset: Int) {
        var shifted = seconds + time_t(offset)
        var parts = tm()
        guard gmtime_r(&shifted, &parts) != nil else { preconditionFailure("gmtime_r: \(seconds) is out of range") }
        parts.tm_gmtoff = offset
        self.init(parts)
    }

    private init(_ parts: tm) {
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        utcOffset = parts.tm_gmtoff
    }

    /// True when both readings fall on the same calendar day of their wall clock.
    public func isSameDay(as other: LocalTime) -> Bool {
        year == other.year && month == other.month && day == other.day
    }
}
