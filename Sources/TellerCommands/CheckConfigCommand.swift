import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerData

/// `teller check-config [FILE]`: reports every problem in the file, each
/// with its line number, and exits non-zero when there is any.
public enum CheckConfigCommand {
    public static func run(_ arguments: [String]) -> Int32 {
        var arguments = arguments
        // The client key from a pipe (deploy/provision: systemd-creds decrypt … | teller check-config --client-key-stdin).
        let keyStdin = arguments.first == "--client-key-stdin"
        if keyStdin { arguments.removeFirst() }
        guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
            Log.error("usage: teller check-config [--client-key-stdin] [FILE]")
            return 2
        }
        let path = arguments.first ?? Configuration.defaultPath
        var (configuration, problems) = Configuration.load(path: path, required: true)
        if keyStdin { configuration.givenClientKey = IdentityCommand.keyFromStandardInput() }
        var all = problems + configuration.startProblems(file: path)
        if let secret = configuration.secretFile, configuration.hostURL != nil,
           ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"] == nil, !FileManager.default.fileExists(atPath: secret) {
            all.append(ConfigurationProblem(file: path, line: 0, message: "secret_file \(secret) does not exist"))
        }
        for problem in all.sorted(by: { ($0.line == 0 ? Int.max : $0.line) < ($1.line == 0 ? Int.max : $1.line) }) { print(problem) }
        if all.isEmpty {
            print("\(path): ok")
            return 0
        }
        print("\(path): \(all.count) problem\(all.count == 1 ? "" : "s")")
        return 1
    }
}
