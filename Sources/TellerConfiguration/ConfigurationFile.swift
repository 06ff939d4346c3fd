import SystemCalls
import FoundationEssentials
import Glibc

/// One `key = value` line of teller.conf, with where it came from.
public struct ConfigurationEntry: Sendable {
    public let key: String
    public let value: String
    public let line: Int
}

/// A problem in a configuration file, tied to its line.
public struct ConfigurationProblem: Error, CustomStringConvertible, Equatable, Sendable {
    public let file: String
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// Control bytes from the file (an escape sequence, a NUL) are shown
    /// escaped, so a message can never repaint or hide a technician's terminal.
    public var description: String {
        let text = line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
        return text.escapingControlCharacters()
    }
}

extension String {
    /// `\x1b`-style escapes for C0 and C1 control characters and DEL; everything else as it is.
    public func escapingControlCharacters() -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Reads the `key = value` format: one setting per line, `#` starts a
/// comment (whole-line or after whitespace), blank lines are ignored, and
/// values may be wrapped in double quotes to keep a `#` or edge spaces.
public enum ConfigurationFile: Sendable {
    public static func parse(_ text: String, file: String) -> (entries: [ConfigurationEntry], problems: [ConfigurationProblem]) {
        var entries: [ConfigurationEntry] = []
        var problems: [ConfigurationProblem] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = stripComment(String(rawLine)).trimmingWhitespace()
            if line.isEmpty { continue }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append(ConfigurationProblem(file: file, line: number, message: "expected 'key = value', found '\(line)'"))
                continue
            }
            let key = String(line[..<equals]).trimmingWhitespace()
            var value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else {
                problems.append(ConfigurationProblem(file: file, line: number, message: "'\(key)' is not a key (keys are lower_case_with_underscores)"))
                continue
            }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            entries.append(ConfigurationEntry(key: key, value: value, line: number))
        }
        return (entries, problems)
    }

    /// Drops a `#` comment that is not inside double quotes.
    private static func stripComment(_ line: String) -> String {
        var inQuotes = false
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if character == "\"" { inQuotes.toggle() }
            if character == "#", !inQuotes, previous.isWhitespace || offset == 0 {
                return String(line.prefix(offset))
            }
            previous = character
        }
        return line
    }
}

extension ConfigurationFile {
    /// Far above any real teller.conf (a few hundred bytes), far below what could stall a start.
    static let maximumBytes = 64 * 1024

    /// The text of the file at `path`: the terminal, check-config and
    /// `teller config` all read teller.conf through here. The file is opened
    /// once, by its own name, and what was opened is looked at before it is
    /// read: nothing can swap a pipe or a larger file in between.
    /// - Returns: the text; nil when the file does not exist and is not
    ///   `required` (the terminal then runs on the defaults); or the problem
    ///   (a folder, a link, a device, too large, unreadable, not UTF-8)
    ///   naming the file.
    public static func read(_ path: String, required: Bool) -> Result<String?, ConfigurationProblem> {
        func problem(_ message: String) -> Result<String?, ConfigurationProblem> {
            .failure(ConfigurationProblem(file: path, line: 0, message: message))
        }
        let file: FileDescriptor
        do {
            file = try .open(forReadingWithoutFollowing: path)
        } catch {
            switch error.errno {
            case .noSuchFile: return required ? problem("no such file") : .success(nil)
            case .tooManySymbolicLinks: return problem("is a symbolic link; teller.conf is read by its own name, so put the file itself here")
            case .permissionDenied, .notPermitted: return problem("cannot read the file (permissions?)")
            case .noSuchDevice: return problem("is not a regular file: it is a socket; a configuration is a text file")
            default: return problem("cannot open the file: \(error)")
            }
        }
        guard let status = FileStatus(descriptor: file) else { return problem("cannot look at the open file") }
        switch status.kind {
        case .regular: break
        case .directory: return problem("is a directory, not a configuration file")
        default:
            let kind = switch status.kind {
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            default: "a pipe or special file"
            }
            return problem("is not a regular file: it is \(kind); a configuration is a text file")
        }
        if status.size > maximumBytes {
            return problem("is \(status.size) bytes; a configuration is at most \(maximumBytes) bytes")
        }
        var bytes: [UInt8] = []
        while true {
            let chunk: [UInt8]
            do { chunk = try file.read(upTo: maximumBytes + 1 - bytes.count) } catch {
                return problem("cannot read the file: \(error)")
            }
            if chunk.isEmpty { break }
            bytes += chunk
            // Grown since it was looked at: refused as if it had been that size.
            if bytes.count > maximumBytes {
                return problem("is over \(maximumBytes) bytes; a configuration is at most \(maximumBytes) bytes")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return problem("the file is not UTF-8 text")
        }
        return .success(text)
    }
}
