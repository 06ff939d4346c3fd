import FoundationEssentials

/// What retention has removed from the terminal's database so far, and
/// why the oldest journal day still waits, for `teller status` and the
/// metrics (docs/architecture.md, "Retention").
public struct RetentionReport: Hashable, Sendable {
    /// Rows removed so far, by what they were.
    public struct Counts: Hashable, Sendable {
        public var outboxRows = 0
        public var tills = 0
        public var tillEvents = 0
        public var printJobs = 0
        public var journalEntries = 0

        public init(outboxRows: Int = 0, tills: Int = 0, tillEvents: Int = 0, printJobs: Int = 0, journalEntries: Int = 0) {
            self.outboxRows = outboxRows
            self.tills = tills
            self.tillEvents = tillEvents
            self.printJobs = printJobs
            self.journalEntries = journalEntries
        }

        /// Every row counted.
        public var total: Int { outboxRows + tills + tillEvents + printJobs + journalEntries }

        public static func + (a: Counts, b: Counts) -> Counts {
            Counts(outboxRows: a.outboxRows + b.outboxRows, tills: a.tills + b.tills, tillEvents: a.tillEvents + b.tillEvents,
                   printJobs: a.printJobs + b.printJobs, journalEntries: a.journalEntries + b.journalEntries)
        }
    }

    /// Everything removed since the database was made.
    public var pruned: Counts
    /// When a batch last removed something; nil when none ever has.
    public var lastPrunedAt: Date?
    /// When a pass last ran to its end (nothing more it may remove).
    public var lastPassAt: Date?
    /// Why the oldest journal day past retention is kept (for technicians),
    /// or nil when nothing holds it back.
    public var heldBack: String?

    public init(pruned: Counts = Counts(), lastPrunedAt: Date? = nil, lastPassAt: Date? = nil, heldBack: String? = nil) {
        self.pruned = pruned
        self.lastPrunedAt = lastPrunedAt
        self.lastPassAt = lastPassAt
        self.heldBack = heldBack
    }
}
