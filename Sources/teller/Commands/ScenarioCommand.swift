import TellerTerminal
import TellerCommands
import TellerQA
import TellerControl
import TellerConfiguration
import SystemCalls
import FoundationEssentials

/// `teller scenario FILE…`: runs QA scenarios (docs/qa.md, "Scenarios").
///
/// By default the terminal runs in this process on the offscreen display
/// and the steps go through its control handler, in milliseconds.
/// `--drive uinput` instead touches a terminal already running on this
/// machine through uinput (the virtual device, deploy/vm/teller-vm).
enum ScenarioCommand {
    static let usageLine = """
        usage: teller scenario FILE... [--out DIR] [--goldens DIR] [--update-goldens] [--config FILE] [--KEY VALUE...]
               teller scenario FILE... --drive uinput [--socket PATH] [--host-channel DEVICE] [--from-line N]
        """

    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        var files: [String] = []
        var rest: [String] = []
        var drive = "in-process", socket = ControlClient.defaultSocket, channel: String?
        var output = FileManager.default.currentDirectoryPath, goldens: String?, update = false, fromLine = 1
        var words = arguments[...]
        while let word = words.popFirst() {
            func value() -> String? { words.popFirst() }
            switch word {
            case "--drive": drive = value() ?? ""
            case "--socket": socket = value() ?? ""
            case "--host-channel": channel = value()
            case "--out": output = value() ?? output
            case "--goldens": goldens = value()
            case "--update-goldens": update = true
            case "--from-line": fromLine = value().flatMap { Int($0) } ?? 0
            default:
                if word.hasPrefix("--") {
                    rest.append(word)
                    if let next = words.first, !next.hasPrefix("--") { rest.append(words.removeFirst()) }
                } else {
                    files.append(word)
                }
            }
        }
        guard !files.isEmpty, ["in-process", "uinput"].contains(drive), fromLine >= 1 else {
            Log.error(usageLine)
            return 2
        }
        let scenarios: [Scenario]
        do {
            scenarios = try files.map { (file) throws(ScenarioError) in try Scenario(contentsOf: file) }
        } catch {
            Log.error("teller scenario: \(error)")
            return 2
        }
        let target: any ScenarioTarget
        do {
            if drive == "uinput" {
                target = try UInputTarget(socketPath: socket, hostChannelPath: channel)
            } else {
                target = try await inProcessTarget(rest, output: output, goldens: goldens, update: update)
            }
        } catch {
            Log.error("teller scenario: \(error)")
            return 1
        }
        let runner = ScenarioRunner(target: target)
        var passed = 0, failed = 0
        for (index, scenario) in scenarios.enumerated() {
            let started = Date()
            do {
                try await runner.run(scenario, from: index == 0 ? fromLine : 1)
                passed += 1
                print("scenario: \(scenario.name): PASS (\(scenario.steps.count) steps, \(Int(Date().timeIntervalSince(started) * 1000)) ms, \(drive))")
            } catch {
                failed += 1
                print("scenario: \(scenario.name): FAIL \(error)")
            }
        }
        print("scenarios: \(passed) passed, \(failed) failed")
        if let inProcess = target as? InProcessTarget {
            for line in inProcess.glyphCacheReport.lines { print(line) }
        }
        return failed == 0 ? 0 : 1
    }

    /// The terminal itself, on the offscreen display, with its control
    /// socket in a private directory so it never meets a running terminal's.
    @MainActor
    private static func inProcessTarget(_ arguments: [String], output: String, goldens: String?, update: Bool) async throws -> InProcessTarget {
        let options = CommandLineOptions(arguments)
        guard options.reportProblems(command: "scenario") else { throw ControlError.failed("bad options") }
        var configuration = options.configuration
        configuration.display = .offscreen
        configuration.runtimeDirectory = Path.join(FileManager.default.temporaryDirectory.path, "teller-scenario-\(ProcessInfo.processInfo.processIdentifier)")
        let path = arguments.firstIndex(of: "--config").map { arguments[$0 + 1] } ?? Configuration.defaultPath
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let app = try TerminalApp(configuration: configuration, configurationPath: path)
        app.start()
        while !app.announcedReady { try await Task.sleep(for: .milliseconds(10)) }
        return InProcessTarget(app: app, outputDirectory: output, goldenDirectory: goldens, updateGoldens: update)
    }
}
