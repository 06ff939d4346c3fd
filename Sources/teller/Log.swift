import Foundation

/// Writes to stderr with the syslog priority prefixes (`<3>` error, `<4>`
/// warning, `<6>` info) that journald turns into log levels.
enum Log {
    static func error(_ message: String) { write(3, message) }
    static func warning(_ message: String) { write(4, message) }
    static func info(_ message: String) { write(6, message) }

    private static func write(_ priority: Int, _ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        FileHandle.standardError.write(Data(lines.map { "<\(priority)>\($0)\n" }.joined().utf8))
    }
}
