import SystemCalls
import FoundationEssentials
import Glibc

/// The terminal's time zone is the C library's: `TZ`, else /etc/localtime,
/// read with tzdata's rules (``LocalTime``'s `.system`). teller.conf's
/// `time_zone` names a zone; the terminal sets `TZ` to it when it starts.
///
/// FoundationEssentials cannot check a zone name (its `TimeZone` knows only
/// GMT on Linux, and full Foundation's would bring ICU), so the name is
/// looked up where the C library will look: tzdata, a dependency of the .deb.
public enum SystemTimeZone: Sendable {
    /// Where tzdata keeps one compiled file per zone.
    static let zoneDirectory = "/usr/share/zoneinfo"

    /// Whether `name` is a zone tzdata has, such as "Europe/Berlin" or
    /// "Etc/GMT+5": a relative path of letters, digits, '_', '-' and '+'
    /// between single slashes (so never "..", which could leave the
    /// folder), naming a compiled zone file (one that starts with "TZif";
    /// zone.tab and the other tables beside them do not).
    static func isInstalled(_ name: String) -> Bool {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let safe = components.allSatisfy { component in
            !component.isEmpty && component.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-+".contains($0)) }
        }
        let path = zoneDirectory + "/" + name
        guard safe, FileStatus(path: path)?.kind == .regular, let contents = FileManager.default.contents(atPath: path) else { return false }
        return contents.starts(with: "TZif".utf8)
    }

    /// Makes `name` the zone of every later reading of local time in this
    /// process. Call it at start, before other threads read the time: the
    /// environment is not thread-safe.
    public static func use(_ name: String) {
        setenv("TZ", name, 1)
        tzset()
    }
}
