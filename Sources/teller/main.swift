import TellerData
import TellerCommands
import TellerControl
import TellerConfiguration
import SystemCalls
import Device
// teller: the counter terminal's executable and composition root.
// No top-level await: an async main would hand the main queue to Dispatch's
// pool (dispatchMain). The main thread serves it itself instead (Device's
// MainThread), so the terminal's input and frames run on this one thread.
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
let exitCode: Int32
// After "--" a word is a value (`teller config set branch -- -h`), not a request for help.
if let command = arguments.first, let help = commandUsage[command],
   arguments.dropFirst().prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(help)
    exit(0)
}
switch arguments.first {
case "run":
    exitCode = MainThread.run { await RunCommand.run(Array(arguments.dropFirst())) }
case "status":
    exitCode = MainThread.run { await StatusCommand.run(Array(arguments.dropFirst())) }
case "metrics":
    exitCode = MainThread.run { await MetricsCommand.run(Array(arguments.dropFirst())) }
case "journal":
    exitCode = MainThread.run { await JournalCommand.run(Array(arguments.dropFirst())) }
case "check":
    exitCode = MainThread.run { await CheckCommand.run(Array(arguments.dropFirst())) }
case "rescue":
    exitCode = MainThread.run { await RescueCommand.run(Array(arguments.dropFirst())) }
case "drain":
    exitCode = MainThread.run { await DrainCommand.run(Array(arguments.dropFirst())) }
case "check-config":
    exitCode = CheckConfigCommand.run(Array(arguments.dropFirst()))
case "config":
    exitCode = ConfigCommand.run(Array(arguments.dropFirst()))
case "identity":
    exitCode = IdentityCommand.run(Array(arguments.dropFirst()))
case "hash-pin":
    exitCode = HashPINCommand.run(Array(arguments.dropFirst()))
case "scenario":
    exitCode = MainThread.run { await ScenarioCommand.run(Array(arguments.dropFirst())) }
case "ctl":
    exitCode = ControlClient.run(Array(arguments.dropFirst()))
case "ctl-bridge":
    exitCode = ControlBridge.run(Array(arguments.dropFirst()))
case "console-lock":
    exitCode = ConsoleLockCommand.run(Array(arguments.dropFirst()))
case "--version", "version":
    print(BuildInfo.version)
    exitCode = 0
case "-h", "--help", "help", nil:
    print(usage)
    exitCode = arguments.isEmpty ? 2 : 0
default:
    Log.error("unknown command '\(arguments[0])'\n\(usage)")
    exitCode = 2
}
exit(exitCode)
