import FoundationEssentials
import TellerCore

/// Runs retention in the running terminal: a pass soon after start and
/// then every ``Settings/interval``, each pass a batch at a time
/// (``TellerStore/pruneStep(retentionDays:batch:)``, one short transaction)
/// with ``Settings/pause`` between batches, so that an enqueue waits at
/// most one batch for the write lock and the store's actor; after each
/// batch a few freed pages go back to the file system
/// (``TellerStore/reclaimSpace(pages:)``). docs/architecture.md, "Retention".
public actor RetentionPruner {
    public struct Settings: Sendable {
        /// `retention_days`.
        public var retentionDays: Int
        /// Rows per transaction.
        public var batch = 200
        /// The wait between two batches, which leaves the store to the counter.
        public var pause: Duration = .milliseconds(50)
        /// Free pages given back after each batch.
        public var pagesPerBatch = 128
        /// The wait before the first pass: the start's own work goes first.
        public var firstPassAfter: Duration = .seconds(120)
        /// The wait between passes.
        public var interval: Duration = .seconds(3600)

        public init(retentionDays: Int) {
            self.retentionDays = retentionDays
        }
    }

    /// What one pass did.
    public struct Pass: Sendable {
        public var removed = RetentionReport.Counts()
        public var batches = 0
        /// The longest a batch held the write lock.
        public var longestBatch: Duration = .zero
        public var heldBack: String?
    }

    private let store: TellerStore
    private let settings: Settings
    private let log: @Sendable (String) -> Void
    private var task: Task<Void, Never>?
    private var lastHeldBack: String?

    /// - Parameter log: one line per pass that removed anything, per change
    ///   of what holds the journal back, and per failure.
    public init(store: TellerStore, settings: Settings, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.settings = settings
        self.log = log
    }

    /// Starts the passes on a task of their own; ``stop()`` ends them.
    public func start() {
        guard task == nil else { return }
        task = Task { [settings] in
            try? await Task.sleep(for: settings.firstPassAfter)
            while !Task.isCancelled {
                _ = await self.runPass()
                try? await Task.sleep(for: settings.interval)
            }
        }
    }

    public func stop() {
        task?.cancel()
        task = nil
    }

    /// One pass: batches until one removes nothing (or the task is cancelled).
    @discardableResult
    public func runPass() async -> Pass {
        var pass = Pass()
        do {
            while !Task.isCancelled {
                let step = try await store.pruneStep(retentionDays: settings.retentionDays, batch: settings.batch)
                if step.isDone {
                    pass.heldBack = step.heldBack
                    break
                }
                pass.removed = pass.removed + step.removed
                pass.batches += 1
                pass.longestBatch = max(pass.longestBatch, step.lockHeld)
                try await store.reclaimSpace(pages: settings.pagesPerBatch)
                try? await Task.sleep(for: settings.pause)
            }
        } catch {
            log("retention: \(error); what is left waits for the next pass")
            return pass
        }
        if pass.batches > 0 {
            let r = pass.removed
            log("retention: removed \(r.outboxRows) payments, \(r.tills) tills with \(r.tillEvents) till events, \(r.printJobs) print jobs and "
                + "\(r.journalEntries) journal entries older than \(settings.retentionDays) days in \(pass.batches) batches "
                + "(the longest held the store \(Self.milliseconds(pass.longestBatch)) ms)")
        }
        if pass.heldBack != lastHeldBack {
            log(pass.heldBack.map { "retention: the journal is kept from \($0)" } ?? "retention: nothing holds the journal back")
            lastHeldBack = pass.heldBack
        }
        return pass
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).fixed(decimals: 1)
    }
}
