import SystemCalls
import FoundationEssentials
import Glibc

/// The one writer of teller.conf: `teller config set` (which the deploy
/// scripts call) and the diagnostics screen's touch calibration.
///
/// It changes keys in place, keeping every other line and comment; it finds
/// a key's line with the terminal's own parser (``ConfigurationFile``), so
/// what it replaces is what the terminal would have read; and it writes the
/// result only when the terminal would accept it, durably (``DurableFile``),
/// with the old file's owner and mode: root setting a key leaves the file
/// the service's.
public enum ConfigurationEditor: Sendable {
    /// Sets each key to its value, in order, in one write.
    /// - Parameters:
    ///   - changes: keys and their values as the terminal reads them
    ///     (no quotes or comments); a key given twice takes the last value.
    ///   - path: the file; created (mode 0640) when missing only if `createIfMissing`.
    ///   - dryRun: check everything and say what would change, but write nothing.
    /// - Returns: the keys whose value the write changed (or would change), in
    ///   the order given; empty when the file already said all this and
    ///   nothing was written, so a second run with the same values is a no-op.
    /// - Throws: ``ConfigurationEditError``; the file is then as it was.
    @discardableResult
    public static func set(_ changes: [(key: String, value: String)], in path: String, createIfMissing: Bool = false,
                    dryRun: Bool = false) throws(ConfigurationEditError) -> [String] {
        let old: String
        switch ConfigurationFile.read(path, required: !createIfMissing) {
        case .failure(let problem): throw .unreadable([problem])
        case .success(let text): old = text ?? ""
        }
        // A line the parser cannot read may be the key meant to be set;
        // editing around it would guess.
        let syntax = ConfigurationFile.parse(old, file: path).problems
        guard syntax.isEmpty else { throw .unreadable(syntax) }

        var text = old
        for (key, value) in changes {
            guard let line = line(key, value) else {
                throw .refused([ConfigurationProblem(file: path, line: 0, message: "\(key): the value cannot be written on one line of \(path) as it is (a line break, or both '\"' and ' #')")])
            }
            text = replacing(key, value: value, with: line, in: text, file: path)
        }
        // The rules `teller run` applies at start, to the whole result: a
        // value it would refuse never reaches the file.
        let (configuration, problems) = Configuration.load(text: text, file: path)
        let all = problems + configuration.startProblems(file: path, readingFiles: false)
        guard all.isEmpty else { throw .refused(all) }
        guard text != old else { return [] }
        let changed = changedKeys(changes.map(\.key), from: old, to: text, file: path)
        guard !dryRun else { return changed }

        let existing = FileStatus(linkAt: path)
        do {
            try DurableFile.write(Data(text.utf8), to: path, mode: existing?.permissions ?? 0o640,
                                  owner: existing.map { (user: $0.owner, group: $0.group) })
        } catch {
            throw .unwritable(ConfigurationProblem(file: path, line: 0, message: "\(error)"))
        }
        // Temporaries an earlier write left when the power went.
        DurableFile.removeLeftovers(of: path)
        return changed
    }

    /// The keys among `keys` (each once, in order) whose value differs
    /// between the two texts as the terminal reads them.
    private static func changedKeys(_ keys: [String], from old: String, to new: String, file: String) -> [String] {
        let before = ConfigurationFile.parse(old, file: file).entries
        let after = ConfigurationFile.parse(new, file: file).entries
        var seen = Set<String>()
        return keys.filter { key in
            guard seen.insert(key).inserted else { return false }
            return before.first(where: { $0.key == key })?.value != after.first(where: { $0.key == key })?.value
        }
    }

    /// One key, for the diagnostics screen's calibration. The file is
    /// created when the terminal runs on the defaults, without one.
    public static func set(_ key: String, to value: String, in path: String) throws(ConfigurationEditError) {
        try set([(key, value)], in: path, createIfMissing: true)
    }

    /// `key = value`, quoted only when the parser would otherwise read
    /// another value (a ` #`, edge spaces, surrounding quotes); nil when no
    /// line reads back as exactly this value.
    public static func line(_ key: String, _ value: String) -> String? {
        for candidate in ["\(key) = \(value)", "\(key) = \"\(value)\""] {
            let (entries, problems) = ConfigurationFile.parse(candidate, file: "")
            if problems.isEmpty, entries.count == 1, entries[0].key == key, entries[0].value == value { return candidate }
        }
        return nil
    }

    /// `text` with the line that sets `key` replaced by `line`, or with `line`
    /// appended when no line sets it. A line that already says `value` is
    /// kept as it is, with its spacing and comment.
    private static func replacing(_ key: String, value: String, with line: String, in text: String, file: String) -> String {
        // The parser's own split, so its line numbers index these lines.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let entry = ConfigurationFile.parse(text, file: file).entries.first(where: { $0.key == key }) {
            guard entry.value != value else { return text }
            lines[entry.line - 1] = line
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append(line)
        }
        if lines.last != "" { lines.append("") }
        return lines.joined(separator: "\n")
    }
}

/// Why teller.conf was not changed. Each case carries the problems, with
/// the file and line, that a technician reads.
public enum ConfigurationEditError: LocalizedError, CustomStringConvertible, Sendable {
    /// The file cannot be read, or has a line that is not `key = value`.
    case unreadable([ConfigurationProblem])
    /// The result would be refused by the terminal (an invalid value, a rule
    /// between keys, a problem the file already had).
    case refused([ConfigurationProblem])
    /// Writing failed (disk full, permissions); the old file is intact.
    case unwritable(ConfigurationProblem)

    public var problems: [ConfigurationProblem] {
        switch self {
        case .unreadable(let problems), .refused(let problems): problems
        case .unwritable(let problem): [problem]
        }
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
    public var errorDescription: String? { description }
}
