import Foundation

/// Times as the counter shows them: "08:02", "2 min ago", "updated 08:02";
/// for the technician, ISO 8601 instants.
public struct TimeFormatting: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    /// "14:05" in the terminal's time zone.
    public func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "29 Nov 14:05" for dates that are not today.
    public func dayAndClock(_ date: Date, now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if calendar.isDate(date, inSameDayAs: now) { return clock(date) }
        let parts = calendar.dateComponents([.day, .month], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(parts.day ?? 0) \(months[((parts.month ?? 1) - 1) % 12]) \(clock(date))"
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
        ISO8601DateFormatter().string(from: date)
    }

    /// "updated 08:02" for data from the cache.
    public func updated(_ date: Date, now: Date) -> String {
        "updated \(dayAndClock(date, now: now))"
    }
}
