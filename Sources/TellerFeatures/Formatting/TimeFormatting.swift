import FoundationEssentials
import TellerCore

/// Times as the counter shows them, in the bank's regional format: "08:02",
/// "2 min ago", "updated 08:02"; a day that is not today as "29 Nov 14:05"
/// in English, "29.11.2026 14:05" in German, "29/11/2026 14:05" in Spanish
/// and Arabic (in Arabic-Indic digits when the bank chose them). For the
/// technician, ISO 8601 instants.
public struct TimeFormatting: Sendable {
    /// Whose wall clock the times of day are read on (``LocalTime``).
    public let zone: LocalTime.Zone
    /// The regional format to write in, or nil for the terminal's current
    /// one (``Localization/format``), read at each call so a language
    /// switch shows at the next frame.
    public let format: RegionalFormat?

    /// - Parameters:
    ///   - zone: the terminal's own zone by default; tests pass a
    ///     fixed one so that they read the same on every machine.
    ///   - format: nil follows the terminal's language; tests pass one.
    public init(zone: LocalTime.Zone, format: RegionalFormat? = nil) {
        self.zone = zone
        self.format = format
    }

    private var regional: RegionalFormat { format ?? Localization.format }

    /// "14:05" in the terminal's time zone.
    public func clock(_ date: Date) -> String {
        let regional = regional
        return regional.leftToRight(regional.digits(clock(LocalTime(date, in: zone))))
    }

    /// The time alone for today; with the date for other days: "29 Nov 14:05"
    /// in English, "29.11.2026 14:05" in German.
    public func dayAndClock(_ date: Date, now: Date) -> String {
        let regional = regional
        let local = LocalTime(date, in: zone)
        if local.isSameDay(as: LocalTime(now, in: zone)) { return clock(date) }
        return regional.leftToRight(regional.digits(day(local, regional, withYear: false) + " " + clock(local)))
    }

    /// The date with its year and the time, whatever the day: "29 Nov
    /// 2026 14:05" in English, "29.11.2026 14:05" in German. For what the
    /// customer keeps, such as a printed receipt, which is read on other days.
    public func dateAndClock(_ date: Date) -> String {
        let regional = regional
        let local = LocalTime(date, in: zone)
        return regional.leftToRight(regional.digits(day(local, regional, withYear: true) + " " + clock(local)))
    }

    /// "just now", "1 min ago", "2 min ago", "3 h ago", "2 days ago".
    public func relative(_ date: Date, now: Date) -> String {
        let regional = regional
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60:
            return tr("just now")
        case ..<3600:
            let minutes = seconds / 60
            return trn("{count} min ago", "{count} min ago", count: minutes, ["count": regional.number(minutes)])
        case ..<86_400:
            let hours = seconds / 3600
            return trn("{count} h ago", "{count} h ago", count: hours, ["count": regional.number(hours)])
        default:
            let days = seconds / 86_400
            return trn("{count} day ago", "{count} days ago", count: days, ["count": regional.number(days)])
        }
    }

    /// "2026-11-30T08:02:00Z": an instant for the technician, in UTC as the
    /// log and `teller status` write it, so the three can be compared.
    /// Never localized.
    public func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "updated 08:02" for data from the cache.
    public func updated(_ date: Date, now: Date) -> String {
        tr("updated {time}", ["time": dayAndClock(date, now: now)])
    }

    /// "29.11.2026" where the language writes numeric dates (always with
    /// the year); "29 Nov", or "29 Nov 2026" `withYear`, in English. Latin
    /// digits, before the format's digits and isolation.
    private func day(_ local: LocalTime, _ regional: RegionalFormat, withYear: Bool) -> String {
        if let separator = regional.rules.dateSeparator {
            return [local.day.zeroPadded(2), local.month.zeroPadded(2), String(local.year)].joined(separator: separator)
        }
        return "\(local.day) \(Self.months[local.month - 1])" + (withYear ? " \(local.year)" : "")
    }

    /// "14:05" in Latin digits, before the format's digits and isolation.
    private func clock(_ local: LocalTime) -> String {
        "\(local.hour.zeroPadded(2)):\(local.minute.zeroPadded(2))"
    }

    /// English's month abbreviations. Only English and pseudo write month
    /// names (the others write numeric dates), and in pseudo the date is
    /// isolated as data, so they need no catalog entries.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
