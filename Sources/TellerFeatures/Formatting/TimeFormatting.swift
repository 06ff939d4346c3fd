import FoundationEssentials
import TellerCore

/// Times as the counter shows them: "08:02", "2 min ago", "updated 08:02";
/// for the technician, ISO 8601 instants.
public struct TimeFormatting: Sendable {
    /// Whose wall clock the times of day are read on (``LocalTime``).
    public let zone: LocalTime.Zone

    /// - Parameter zone: the terminal's own zone by default; tests pass a
    ///   fixed one so that they read the same on every machine.
    public init(zone: LocalTime.Zone) {
        self.zone = zone
    }

    /// "14:05" in the terminal's time zone.
    public func clock(_ date: Date) -> String {
        clock(LocalTime(date, in: zone))
    }

    /// "29 Nov 14:05" for dates that are not today.
    public func dayAndClock(_ date: Date, now: Date) -> String {
        let local = LocalTime(date, in: zone)
        if local.isSameDay(as: LocalTime(now, in: zone)) { return clock(local) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(local.day) \(months[local.month - 1]) \(clock(local))"
    }

    /// "just now", "1 min ago", "2 min ago", "3 h ago", "2 days ago".
    public func relative(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default:
            let days = seconds / 86_400
            return days == 1 ? "1 day ago" : "\(days) days ago"
        }
    }

    /// "2026-11-30T08:02:00Z": an instant for the technician, in UTC as the
    /// log and `teller status` write it, so the three can be compared.
    public func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "updated 08:02" for data from the cache.
    public func updated(_ date: Date, now: Date) -> String {
        "updated \(dayAndClock(date, now: now))"
    }

    private func clock(_ local: LocalTime) -> String {
        "\(local.hour.zeroPadded(2)):\(local.minute.zeroPadded(2))"
    }
}
