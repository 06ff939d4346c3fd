extension Syscall {
    /// fsyncs the directory holding `path`, so that a rename into it
    /// survives a power cut where the file system allows it (best effort).
    package static func syncDirectory(containing path: String) {
        syncDirectory(path.parentDirectory)
    }
}
