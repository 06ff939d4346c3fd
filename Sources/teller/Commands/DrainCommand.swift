import TellerTerminal
import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData

/// `teller drain`: runs the sync engine without a display, so a technician
/// can empty the queue (e.g. before an update) and tests can drive it as a
/// real process. `--until-empty` exits 0 once nothing is queued.
enum DrainCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        let options = CommandLineOptions(arguments, switches: ["until-empty"])
        guard options.reportProblems(command: "drain") else { return 2 }
        let configuration = options.configuration
        do {
            let live = try LiveData(configuration: configuration)
            guard let engine = live.engine else {
                Log.error("teller drain: no host_url configured; nothing to drain to")
                return 2
            }
            let events = await engine.events()
            let logger = Task {
                for await event in events { log(event) }
            }
            defer { logger.cancel() }
            if options.switches.contains("until-empty") {
                // A refused handshake or an offline host is said once, and teller status shows it.
                await engine.watchProblems()
                while let wait = await engine.drainOnce() {
                    try await Task.sleep(for: .milliseconds(Int(wait * 1000) + 1))
                }
                await engine.recordCurrentProblem()
                let left = try await live.store.summary().pendingCount
                Log.info("sync: queue empty (\(left) pending)")
                return 0
            }
            await engine.start()
            await SignalWaiter.waitForTermination()
            await engine.stop()
            Log.info("sync: stopped")
            return 0
        } catch {
            Log.error("teller drain: \(error)")
            return 1
        }
    }

    static func log(_ event: SyncEvent) {
        switch event {
        case .queued(let key): Log.info("sync: queued \(key)")
        case .sending(let key): Log.info("sync: sending \(key)") // only once the request left (SyncEvent.sending)
        case .confirmed(let key, let reference): Log.info("sync: confirmed \(key) \(reference)")
        case .rejected(let key, let reason): Log.info("sync: rejected \(key) \(reason)")
        case .needsReview(let key, let reason): Log.warning("sync: needs review \(key): \(reason)")
        // The engine's onProblem (LiveData) already logs each change once.
        case .online, .offline, .problem: break
        }
    }
}
