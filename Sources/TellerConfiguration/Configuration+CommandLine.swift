import SystemCalls

/// Command-line flags: every configuration key is also a flag
/// (`data_dir` is `--data-dir DIR`) and flags override the file.
/// `--config FILE` picks the file; `switches` are the command's own
/// value-less flags (e.g. `--until-empty`).
public struct CommandLineOptions: Sendable {
    public var configuration: Configuration
    /// The file that was read (`--config` or the default).
    public var configurationPath: String
    public var switches: Set<String>
    public var problems: [ConfigurationProblem]

    public init(_ arguments: [String], switches known: Set<String> = []) {
        var path = Configuration.defaultPath
        var explicit = false
        var overrides: [(key: String, value: String)] = []
        var switches: Set<String> = []
        var problems: [ConfigurationProblem] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else {
                problems.append(ConfigurationProblem(file: "command line", line: 0, message: "unexpected argument '\(argument)'"))
                continue
            }
            let name = String(argument.dropFirst(2))
            if known.contains(name) {
                switches.insert(name)
                continue
            }
            let key = name.replacing("-", with: "_")
            let takesValue = rest.first.map { !$0.hasPrefix("--") } ?? false
            if key == "config" {
                guard let value = rest.popFirst(), takesValue else {
                    problems.append(ConfigurationProblem(file: "command line", line: 0, message: "--config needs a file"))
                    continue
                }
                path = value
                explicit = true
            } else if Configuration.keys[key] != nil {
                overrides.append((key, takesValue ? rest.popFirst()! : "true"))
            } else {
                problems.append(ConfigurationProblem(file: "command line", line: 0, message: "unknown option '\(argument)'"))
            }
        }
        var (configuration, fileProblems) = Configuration.load(path: path, required: explicit)
        problems += fileProblems
        for (key, value) in overrides {
            if let message = Configuration.keys[key]!.apply(value, &configuration) {
                problems.append(ConfigurationProblem(file: "command line", line: 0, message: "--\(key.replacing("_", with: "-")): \(message)"))
            }
        }
        self.configuration = configuration
        configurationPath = path
        self.switches = switches
        self.problems = problems
    }

    /// Logs every problem; true when there were none.
    public func reportProblems(command: String) -> Bool {
        for problem in problems { Log.error("teller \(command): \(problem)") }
        return problems.isEmpty
    }
}
