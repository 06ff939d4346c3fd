import FoundationEssentials

/// What the clock on the branch's wall reads at an instant: the date and
/// time an operator expects to see on the screen and the receipt.
///
/// This is the one place the terminal turns an instant into local time:
/// the zone gives the offset from UTC in force at that instant, and the
/// calendar arithmetic (proleptic Gregorian) is done here. The system zone
/// itself is read by TellerData (`LocalTime.Zone.system`, the C library's
/// `localtime_r` with tzdata's rules), since reading /etc/localtime is I/O;
/// FoundationEssentials cannot do it, its `TimeZone.current` being GMT on Linux.
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
    public enum Zone: Sendable {
        /// A fixed offset east of UTC without daylight saving: UTC for the
        /// technician's instants, and tests that must not depend on the
        /// zone of the machine (or of a neighbouring test that sets `TZ`).
        case fixed(secondsEastOfUTC: Int)
        /// A zone whose offset changes with the instant (daylight saving),
        /// such as the system's.
        case reading(any UTCOffsetReader)

        public static let utc = Zone.fixed(secondsEastOfUTC: 0)

        /// The offset from UTC in force at `date`.
        public func utcOffset(at date: Date) -> Int {
            switch self {
            case .fixed(let offset): offset
            case .reading(let reader): reader.utcOffset(at: date)
            }
        }
    }

    /// The wall-clock reading of `date` in `zone`, to the whole second
    /// (rounded down, as a clock shows it).
    public init(_ date: Date, in zone: Zone) {
        let offset = zone.utcOffset(at: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        (year, month, day) = Self.civilDate(daysSince1970: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        utcOffset = offset
    }

    /// The Gregorian date `days` after 1970-01-01 (H. Hinnant's civil_from_days).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// True when both readings fall on the same calendar day of their wall clock.
    public func isSameDay(as other: LocalTime) -> Bool {
        year == other.year && month == other.month && day == other.day
    }
}

/// Where a zone's offset from UTC comes from: the system's zone is read by
/// TellerData; tests may bring their own.
public protocol UTCOffsetReader: Sendable {
    func utcOffset(at date: Date) -> Int
}
