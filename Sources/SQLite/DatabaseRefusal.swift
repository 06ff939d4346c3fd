import FoundationEssentials

/// Why Teller will not use a database file, decided before anything is
/// written to it: the file, what is wrong, and what a technician can do.
/// The file is left byte for byte as it was, with no `-wal` or `-shm`.
public struct DatabaseRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Reason: Hashable, Sendable {
        /// The file, or the directory that should hold it, does not exist.
        case missing(directoryExists: Bool)
        /// The file has zero bytes: SQLite would take it for a new database.
        case empty
        /// A SQLite database without Teller's `schema_migrations` (its tables are listed).
        case foreign(tables: [String])
        /// Written by a newer Teller.
        case newerSchema(version: Int64, known: Int64)
        /// Written by an older Teller; `teller run` upgrades it, reading alone cannot.
        case olderSchema(version: Int64, known: Int64)
        /// Not a SQLite file, cut short, or failing SQLite's checks.
        case damaged(String)
        /// Sound as far as anyone knows, but this process may not read it
        /// without writing (permissions, or a `-wal` without its `-shm`).
        case unreadable(String)

        /// The reason without its details.
        public var kind: Kind {
            switch self {
            case .missing: .missing
            case .empty: .empty
            case .foreign: .foreign
            case .newerSchema: .newerSchema
            case .olderSchema: .olderSchema
            case .damaged: .damaged
            case .unreadable: .unreadable
            }
        }
    }

    /// A ``Reason`` without its details, for exit codes and tests.
    public enum Kind: Hashable, Sendable, CaseIterable {
        case missing, empty, foreign, newerSchema, olderSchema, damaged, unreadable
    }

    /// The database file.
    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing(let directoryExists):
            let directory = path.parentDirectory
            return directoryExists
                ? "\(path) does not exist: teller run creates it on first start; check data_dir if the terminal has run before"
                : "\(path) does not exist (no directory \(directory)): check data_dir; teller run creates both on first start"
        case .empty:
            return "\(path) is empty (0 bytes), where a database should be: a failed copy or restore, or a full disk; move it aside (teller run creates a new, empty queue only once it is gone); payments still queued are rescued from the card with teller rescue (docs/deploy.md, \"A dead terminal's card\")"
        case .foreign(let tables):
            let found = tables.isEmpty ? "it has no tables" : "it holds " + tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return "\(path) is not a Teller database (no schema_migrations table; \(found)): check data_dir, which must be Teller's own directory"
        case .newerSchema(let version, let known):
            return "\(path) has schema version \(version), newer than this Teller understands (\(known)): install the newer Teller again (its teller rescue reads it too)"
        case .olderSchema(let version, let known):
            return "\(path) has schema version \(version), older than this Teller's (\(known)): teller run upgrades it on start; reading alone does not"
        case .damaged(let detail):
            return "\(path) is damaged: \(detail); keep it for forensics (move it aside, do not delete it) and rescue what the card holds with teller rescue (docs/deploy.md, \"A dead terminal's card\")"
        case .unreadable(let detail):
            return "\(path) cannot be read: \(detail)"
        }
    }
}
