import TellerTerminal
import TellerCommands
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerData
import TellerRuntime
import SQLite

/// `teller run`: the terminal itself, on the best display available.
enum RunCommand {
    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        MallocArenas.limitToOne()
        let options = CommandLineOptions(arguments)
        guard options.reportProblems(command: "run") else { return 2 }
        do {
            let app = try TerminalApp(configuration: options.configuration, configurationPath: options.configurationPath)
            app.start()
            // The async main drains the main queue the loop lives on; the
            // loop exits the process itself (SIGTERM, fatal display errors).
            while true { try? await Task.sleep(for: .seconds(3600)) }
        } catch let refusal as DatabaseRefusal {
            // Nothing was written; the same exit code as `teller status`, so
            // the journal and systemd say which case it is.
            Log.error("teller run: \(refusal)")
            return refusal.reason.kind.exitCode
        } catch {
            Log.error("teller run: \(error)")
            return 1
        }
    }
}
