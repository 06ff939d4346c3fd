import TellerConfiguration
import SystemCalls
import FoundationEssentials

/// `teller config get KEY` and `teller config set KEY VALUE...`: teller.conf
/// read and written by the terminal's own parser and rules, for technicians
/// and for the deploy scripts, which never parse the file themselves
/// (docs/configuration.md, "Reading and changing settings").
public enum ConfigCommand {
    /// Exit codes, listed in `teller config --help` and docs/configuration.md;
    /// deploy/lib/common.sh relies on `notSet`.
    public enum Exit: Int32 {
        case done = 0
        /// get: the file does not set the key (nothing printed); the terminal uses its default.
        case notSet = 1
        case usage = 2
        /// The file cannot be read, has a line that is not `key = value`, or
        /// (get) sets the key twice or to a value the terminal refuses.
        case unreadable = 3
        /// set: the terminal would refuse the result; nothing was written.
        case refused = 4
        /// set: writing failed; the old file is intact.
        case unwritable = 5
    }

    public static func run(_ arguments: [String]) -> Int32 {
        var path = Configuration.defaultPath
        var explicit = false
        var options = SetOptions()
        var words: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                words += rest
                break
            } else if argument == "--config" {
                guard let file = rest.popFirst() else { return usage("--config needs a file") }
                path = file
                explicit = true
            } else if argument == "--dry-run" {
                options.dryRun = true
            } else if argument == "--technician-pin-stdin" {
                options.pinFromStdin = true
            } else if argument.hasPrefix("--") {
                return usage("unknown option '\(argument)'")
            } else {
                words.append(argument)
            }
        }
        switch words.first {
        case "get":
            guard options == SetOptions() else { return usage("--dry-run and --technician-pin-stdin belong to set") }
            guard words.count == 2 else { return usage("get takes one KEY") }
            return get(words[1], path: path, required: explicit).rawValue
        case "set":
            let pairs = words.dropFirst()
            guard !pairs.isEmpty || options.pinFromStdin, pairs.count.isMultiple(of: 2) else { return usage("set takes KEY VALUE, or several KEY VALUE pairs") }
            let changes = stride(from: pairs.startIndex, to: pairs.endIndex, by: 2).map { (key: pairs[$0], value: pairs[$0 + 1]) }
            guard !options.pinFromStdin || !changes.contains(where: { $0.key == TechnicianPIN.key }) else {
                return usage("give \(TechnicianPIN.key) either as a pair or with --technician-pin-stdin, not both")
            }
            return set(changes, path: path, options: options).rawValue
        case nil:
            return usage("give get or set")
        case let other?:
            return usage("unknown action '\(other)'")
        }
    }

    /// Prints the value of `key` exactly as `teller run` reads it: the
    /// parser's value (comment dropped, quotes removed), refused with the
    /// terminal's own words when the terminal refuses the key's line (a bad
    /// value, set twice). Other lines' values are check-config's business,
    /// so a broken setting elsewhere does not hide this one.
    public static func get(_ name: String, path: String, required: Bool) -> Exit {
        guard Configuration.keys[name] != nil else { return unknownKey(name) }
        let text: String
        switch ConfigurationFile.read(path, required: required) {
        case .failure(let problem): return report([problem], .unreadable)
        case .success(nil): return .notSet
        case .success(let read?): text = read
        }
        let (entries, syntax) = ConfigurationFile.parse(text, file: path)
        guard syntax.isEmpty else { return report(syntax, .unreadable) }
        let matching = entries.filter { $0.key == name }
        guard let entry = matching.first else { return .notSet }
        let lines = Set(matching.map(\.line))
        let refused = Configuration.load(text: text, file: path).1.filter { lines.contains($0.line) }
        guard refused.isEmpty else { return report(refused, .unreadable) }
        print(entry.value)
        return .done
    }

    /// What `set` takes besides its pairs.
    public struct SetOptions: Equatable {
        /// Check and print what would change, write nothing.
        public var dryRun = false
        /// Read a technician PIN from stdin and set `technician_pin_hash`
        /// only when the stored verifier does not already verify it, so
        /// neither the PIN nor its hash is ever on a command line.
        public var pinFromStdin = false

        public init() {}
    }

    /// Sets the keys in one durable write when the terminal would accept the
    /// whole result (``ConfigurationEditor``), and prints the keys whose
    /// value changed (or, with `dryRun`, would change) on stdout, one a
    /// line: nothing when the file already says so. Never a value.
    public static func set(_ pairs: [(key: String, value: String)], path: String, options: SetOptions = SetOptions()) -> Exit {
        if let unknown = pairs.first(where: { Configuration.keys[$0.key] == nil }) { return unknownKey(unknown.key) }
        var changes = pairs
        if options.pinFromStdin {
            guard let pin = readLine(strippingNewline: true), TechnicianPIN.isValid(pin) else {
                Log.error("teller config: a technician PIN is 4 to 12 digits, given on standard input; nothing was changed")
                return .usage
            }
            do {
                let verifier = try TechnicianPIN.verifier(for: pin, keeping: storedValue(TechnicianPIN.key, path: path))
                changes.append((key: TechnicianPIN.key, value: verifier))
            } catch {
                Log.error("teller config: \(error); nothing was changed")
                return .unwritable
            }
        }
        let changed: [String]
        do {
            changed = try ConfigurationEditor.set(changes, in: path, dryRun: options.dryRun)
        } catch {
            let exit: Exit = switch error {
            case .unreadable: .unreadable
            case .refused: .refused
            case .unwritable: .unwritable
            }
            _ = report(error.problems, exit)
            Log.error("teller config: nothing was changed")
            return exit
        }
        for key in changed { print(key) }
        let keys = changed.joined(separator: ", ")
        Log.info(changed.isEmpty
            ? "teller config: \(path): nothing to change, it already says so"
            : options.dryRun
            ? "teller config: \(path): would set \(keys) (--dry-run: nothing was written)"
            : "teller config: \(path): set \(keys); the terminal reads it when it starts (systemctl restart teller)")
        return .done
    }

    /// The value the file gives `key` now, or nil when it does not set it or
    /// cannot be read (``ConfigurationEditor`` then reports why).
    private static func storedValue(_ key: String, path: String) -> String? {
        guard case .success(let text?) = ConfigurationFile.read(path, required: true) else { return nil }
        return ConfigurationFile.parse(text, file: path).entries.first(where: { $0.key == key })?.value
    }

    private static func report(_ problems: [ConfigurationProblem], _ exit: Exit) -> Exit {
        for problem in problems { Log.error("teller config: \(problem)") }
        return exit
    }

    private static func unknownKey(_ name: String) -> Exit {
        Log.error("teller config: unknown key '\(name)'\(Configuration.suggestion(for: name))".escapingControlCharacters())
        return .usage
    }

    private static func usage(_ message: String) -> Int32 {
        Log.error("teller config: \(message.escapingControlCharacters())\n\(commandUsage["config"]!)")
        return Exit.usage.rawValue
    }
}
