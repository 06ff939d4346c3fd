
/// Writes to stderr with the syslog priority prefixes (`<3>` error, `<4>`
/// warning, `<6>` info) that journald turns into log levels.
public enum Log {
    public static func error(_ message: String) { write(3, message) }
    public static func warning(_ message: String) { write(4, message) }
    public static func info(_ message: String) { write(6, message) }
    /// Routine detail (a retry's timer): journalctl shows it, `-p info` hides it.
    public static func debug(_ message: String) { write(7, message) }

    /// A log that cannot be written has nowhere to report that.
    private static func write(_ priority: Int, _ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        try? StandardStream.error.writeAll(lines.map { "<\(priority)>\($0)\n" }.joined().utf8)
    }
}
