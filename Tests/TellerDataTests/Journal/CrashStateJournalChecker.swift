import Foundation
@testable import ProcessHarness

/// The crash-state checker's journal walk (`deploy/vm/crash_states.py`,
/// `read_journal` and `verify_journal`), run on a teller.db the Swift store
/// wrote: the second oracle of the chain, in Python, that the tests hold
/// to the store's own ``TellerStore/verifyJournal()``.
enum CrashStateJournalChecker {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/vm").path

    static let script = """
        import sqlite3, sys
        sys.path.insert(0, sys.argv[1])
        import crash_states
        db = sqlite3.connect("file:" + sys.argv[2] + "?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        rows, highest = crash_states.read_journal(db)
        print(crash_states.verify_journal(rows, highest))
        """

    /// What `verify_journal` prints for the database at `path`: "(entries, None)" when intact.
    static func verdict(_ path: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await ChildProcess.run("/usr/bin/python3", ["-c", script, folder, path])
    }
}
