import SystemCalls
import TellerData
import SQLite

extension DatabaseRefusal.Kind {
    /// One exit code per kind of refused database, the same for `teller
    /// status` and `teller run`. This is the one table: `teller --help`
    /// lists it from here, the deploy scripts ask `teller status
    /// --refusal-meaning CODE` for its words, and a test holds
    /// teller.service's RestartPreventExitStatus= to ``noRestartCanMend``.
    public var exitCode: Int32 {
        switch self {
        case .missing: 3
        case .empty: 4
        case .foreign: 5
        case .newerSchema: 6
        case .damaged: 7
        case .unreadable: 8
        case .olderSchema: 9
        }
    }

    /// What the code says about the database, in a technician's words.
    public var meaning: String {
        switch self {
        case .missing: "there is no database (the data directory or teller.db is missing)"
        case .empty: "the database is empty (0 bytes)"
        case .foreign: "the database is not a Teller database"
        case .newerSchema: "the database was written by a newer teller than the one installed"
        case .damaged: "the database is damaged or truncated"
        case .unreadable: "the database cannot be read (permission, or a -wal without its -shm)"
        case .olderSchema: "the database has an older schema: the installed teller has not started since it was installed"
        }
    }

    /// A database that no restart of the terminal can mend: systemd must not
    /// restart it in a loop (teller.service's RestartPreventExitStatus=). A
    /// missing database is created by `teller run`, an unreadable one may be
    /// a permission a technician fixes, an older schema is upgraded by run.
    public var noRestartCanMend: Bool {
        switch self {
        case .empty, .foreign, .newerSchema, .damaged: true
        case .missing, .unreadable, .olderSchema: false
        }
    }

    /// `teller --help`'s lines for the table, one code a line.
    static var usageLines: String {
        allCases.sorted { $0.exitCode < $1.exitCode }.map { "  \($0.exitCode) \($0.meaning)" }.joined(separator: "\n")
    }

    /// The kind whose exit code is `code`, if any.
    public init?(exitCode code: Int32) {
        guard let kind = Self.allCases.first(where: { $0.exitCode == code }) else { return nil }
        self = kind
    }
}
