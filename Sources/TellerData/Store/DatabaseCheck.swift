import SystemCalls
import FoundationEssentials
import Synchronization
import TellerCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// The whole-file check of `teller.db` that the running terminal makes in
/// the background, so that no open has to read years of history
/// (docs/architecture.md, "What is checked, and when"): `PRAGMA
/// quick_check` on a read-only connection of its own, on a thread of its
/// own under `SCHED_IDLE`, a while after start and then once a day.
///
/// In WAL mode the check's read does not block a payment's write. When it
/// finds damage, it leaves a mark beside the file (`teller.db.damaged`,
/// with the findings) and tells the store, which from then on takes no
/// more writes (``TellerStore/damageFound(_:)``); the next open checks the
/// whole file before anything else (``Schema/vet(_:requiringCurrent:)``).
public final class DatabaseCheck: Sendable {
    /// What one whole check found.
    public struct Outcome: Sendable, Equatable {
        /// When it finished.
        public let at: Date
        /// How long it read, in seconds.
        public let seconds: Double
        /// SQLite's findings, or nil when the file is whole.
        public let damage: String?
    }

    private let path: String
    private let store: TellerStore
    private let firstAfter: Duration
    private let every: Duration
    private let state = Mutex<(last: Outcome?, stopped: Bool, telling: Task<Void, Never>?)>((nil, false, nil))

    /// The mark a check that found damage leaves beside `databasePath`.
    public static func markPath(for databasePath: String) -> String { databasePath + ".damaged" }

    /// - Parameters:
    ///   - firstAfter: how long after ``start()`` the first check runs (the
    ///     terminal has come up and the first payments are written by then).
    ///   - every: the time between checks.
    public init(store: TellerStore, firstAfter: Duration = .seconds(60), every: Duration = .seconds(86_400)) {
        self.path = store.path
        self.store = store
        self.firstAfter = firstAfter
        self.every = every
    }

    /// The last check's outcome, or nil before the first has finished.
    public var last: Outcome? { state.withLock { $0.last } }

    /// Returns once the store has been told of the damage the last check
    /// found (``check()`` tells it from a task of its own); at once if none.
    public func storeTold() async {
        await state.withLock { $0.telling }?.value
    }

    /// Starts the checks on a thread of their own.
    public func start() {
        KernelThread.detach { [self] in
            // The lowest CPU class there is: it runs only when nothing else wants the core.
            do {
                try KernelThread.runCurrentWhenIdle()
            } catch {
                Log.debug("database check: \(error); running at the normal priority")
            }
            var wait = firstAfter
            while sleep(wait) {
                check()
                wait = every
            }
        }
    }

    /// Stops the checks after the one running, if any.
    public func stop() { state.withLock { $0.stopped = true } }

    /// Runs one whole check now, on the calling thread, and returns what it found.
    @discardableResult
    public func check() -> Outcome {
        let started = ContinuousClock.now
        var damage: String?
        do {
            let reader = try Database(readingOnly: path, besideWriter: true)
            try reader.checkIntegrity(quick: true)
        } catch let error as SQLiteError where error.code.primary == .corrupt || error.code.primary == .notADatabase {
            damage = error.message
        } catch let refusal as DatabaseRefusal where refusal.reason.kind == .damaged {
            damage = refusal.description
        } catch {
            // Not a finding about the file (busy, an I/O error): the next check tries again.
            Log.warning("database check: could not check \(path): \(error)")
        }
        let outcome = Outcome(at: Date(), seconds: (ContinuousClock.now - started).seconds, damage: damage)
        state.withLock { $0.last = outcome }
        if let damage {
            Log.error("database check: \(path) is damaged: \(damage); the terminal takes no more payments")
            do {
                try DurableFile.write(Data("\(damage)\n".utf8), to: DatabaseCheck.markPath(for: path))
            } catch {
                Log.error("database check: cannot leave \(DatabaseCheck.markPath(for: path)): \(error)")
            }
            let store = self.store
            let telling = Task { await store.damageFound(damage) }
            state.withLock { $0.telling = telling }
        } else {
            Log.info("database check: \(path) is whole (quick_check, \(outcome.seconds.fixed(decimals: 2)) s)")
        }
        return outcome
    }

    /// Sleeps `duration` in steps of a second; false once stopped.
    private func sleep(_ duration: Duration) -> Bool {
        var left = duration
        while left > .zero {
            if state.withLock({ $0.stopped }) { return false }
            let step = min(left, .seconds(1))
            usleep(UInt32(step.seconds * 1_000_000))
            left -= step
        }
        return !state.withLock { $0.stopped }
    }
}
