import Foundation

/// Changes one key of teller.conf in place, keeping every other line and
/// comment, and writes the file atomically: the calibration the
/// diagnostics screen saves. (deploy/provision edits teller.conf itself.)
enum ConfigurationEditor {
    static func set(_ key: String, to value: String, in path: String) throws {
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let newLine = "\(key) = \(value)"
        if let index = lines.firstIndex(where: { line in
            let trimmed = line.trimmingWhitespace()
            guard let equals = trimmed.firstIndex(of: "="), !trimmed.hasPrefix("#") else { return false }
            return String(trimmed[..<equals]).trimmingWhitespace() == key
        }) {
            lines[index] = newLine
        } else {
            lines.append(newLine)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
