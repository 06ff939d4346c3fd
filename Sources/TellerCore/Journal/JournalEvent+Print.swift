extension JournalEvent {
    /// The printer took every byte of `job`: which job, what it printed,
    /// of what, and whether it was marked as a copy.
    public static func printed(_ job: PrintJob) -> JournalEvent {
        JournalEvent(kind: .print, operatorID: job.requestedBy, details: [
            "job": .integer(job.id), "document": .text(job.document.rawValue), "subject": .text(job.subject), "copy": .bool(job.isCopy),
        ])
    }
}
