import FoundationEssentials
import Glibc
import TellerCore

extension LocalTime.Zone {
    /// The terminal's own zone as the system configures it (`TZ`, else
    /// /etc/localtime, with tzdata's rules): what the running terminal
    /// shows, and the day its daily limit counts.
    public static let system = LocalTime.Zone.reading(SystemUTCOffset())
}

/// The C library's offset for an instant. glibc's localtime_r, unlike
/// localtime, does not look at TZ again; tzset does, and notices a replaced
/// /etc/localtime, so a technician's change of zone shows without a restart.
struct SystemUTCOffset: UTCOffsetReader {
    func utcOffset(at date: Date) -> Int {
        tzset()
        var instant = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { preconditionFailure("localtime_r: \(date) is out of range") }
        return parts.tm_gmtoff
    }
}
