import ProcessHarness
import Synchronization
import SystemCalls
import TellerData
import SQLite

/// Work on the other core while input is measured, as a counter terminal
/// always has some: one thread spinning, and one committing payment-sized
/// rows to SQLite through the terminal's `Database` (its pragmas: WAL, a
/// durable commit each, checkpoints as the log grows), as the store does
/// while the sync engine records outcomes. Both are kernel threads of
/// their own, outside Swift's cooperative pool and the main queue.
final class BackgroundLoad: Sendable {
    private let stopping = Atomic(false)
    private let commits = Atomic(0)
    private let threads = Mutex<[KernelThread]>([])
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("teller-bench-load", in: TemporaryDirectory.systemPath)
    }

    /// Starts both threads; the SQLite one fails the run if its database cannot be made.
    func start() throws {
        let database = try Database(path: directory.file("load.db"))
        try database.execute("CREATE TABLE load (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        let writer = UncheckedDatabase(database)
        start {
            var spins: UInt64 = 0
            while !self.stopping.load(ordering: .relaxed) { spins &+= 1 }
            withExtendedLifetime(spins) {}
        }
        start {
            let payload = [UInt8](repeating: 0x7B, count: 220)
            while !self.stopping.load(ordering: .relaxed) {
                guard (try? writer.database.run("INSERT INTO load (payload) VALUES (?)", [.blob(payload)])) != nil else { return }
                self.commits.add(1, ordering: .relaxed)
            }
        }
    }

    /// Stops both threads and waits for them.
    /// - Returns: how many rows the SQLite thread committed meanwhile.
    func stop() -> Int {
        stopping.store(true, ordering: .relaxed)
        for thread in threads.withLock({ $0 }) { thread.join() }
        return commits.load(ordering: .relaxed)
    }

    private func start(_ body: @escaping @Sendable () -> Void) {
        let thread = KernelThread.start(body)
        threads.withLock { $0.append(thread) }
    }

    /// The connection, handed to the one thread that uses it from then on.
    private struct UncheckedDatabase: @unchecked Sendable {
        let database: Database
        init(_ database: Database) { self.database = database }
    }
}
