#if canImport(Glibc)
import Glibc
#endif

/// Files and directories by path, and who this process is.
extension Syscall {
    /// The groups this process acts in: its effective group and the
    /// supplementary ones (getgroups(2)), e.g. whether it is in `input`.
    public static func processGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let filled = count > 0 ? getgroups(count, &groups) : 0
        return [getegid()] + groups.prefix(Int(max(filled, 0)))
    }

    /// The name of group `id` (getgrgid(3)), or its number when it has none.
    public static func groupName(_ id: gid_t) -> String {
        guard let entry = getgrgid(id), let name = entry.pointee.gr_name else { return String(id) }
        return String(cString: name)
    }

    /// stat(2): what `path` names, through symbolic links.
    public static func fileStatus(_ path: String) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("stat \(path)") { stat(path, &info) }
        return info
    }

    /// lstat(2): `path` itself, a symbolic link not followed.
    public static func linkStatus(_ path: String) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("lstat \(path)") { lstat(path, &info) }
        return info
    }

    /// Whether anything exists at `path`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The real user id, for refusals that tell the technician who was refused.
    public static var userID: uid_t { getuid() }

    public static func rename(_ source: String, to target: String) throws(SystemCallError) {
        _ = try retrying("rename \(source) to \(target)") { Glibc.rename(source, target) }
    }

    public static func unlink(_ path: String) throws(SystemCallError) {
        _ = try retrying("unlink \(path)") { Glibc.unlink(path) }
    }

    /// fsyncs the directory `directory`, so that a rename into it survives a
    /// power cut where the file system allows it (best effort: some file
    /// systems refuse to sync a directory).
    public static func syncDirectory(_ directory: String) {
        guard let descriptor = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) else { return }
        try? descriptor.sync()
    }

    /// Names in a directory (without "." and "..").
    public static func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
        guard let directory = try retrying("opendir \(path)", failed: { $0 == nil }, { opendir(path) }) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: Memory

    /// Ends a mapping ``FileDescriptor/mapShared(length:offset:)`` made.
    public static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let result = munmap(address, length)
        precondition(result == 0, "munmap of a mapping Teller did not make")
    }

    /// Tells the kernel that `length` bytes from `address` are not needed
    /// (MADV_DONTNEED): a private file mapping is read again from its file
    /// when next touched. Best effort; false when the kernel refused.
    public static func dropPages(_ address: UnsafeMutableRawPointer, length: Int) -> Bool {
        (try? retrying("madvise MADV_DONTNEED") { madvise(address, length, MADV_DONTNEED) }) != nil
    }

    // MARK: Signals

    /// Blocks `signals` on the calling thread (pthread_sigmask); the threads
    /// it creates afterwards inherit the mask.
    public static func blockSignals(_ signals: sigset_t) {
        var signals = signals
        let status = pthread_sigmask(SIG_BLOCK, &signals, nil)
        precondition(status == 0, "pthread_sigmask: \(Errno(rawValue: status)) (a bug in Teller)")  // only a bad argument fails it
    }
}

/// What an open file is, and calls on files, terminals and inotify.
extension FileDescriptor {
    /// fstat(2): the open file itself, whatever has happened to its name since.
    public func status() throws(SystemCallError) -> stat {
        var info = stat()
        _ = try Syscall.retrying("fstat") { fstat(rawValue, &info) }
        return info
    }

    public func changeMode(_ mode: mode_t) throws(SystemCallError) {
        _ = try Syscall.retrying("fchmod") { fchmod(rawValue, mode) }
    }

    public func changeOwner(user: uid_t, group: gid_t) throws(SystemCallError) {
        _ = try Syscall.retrying("fchown") { fchown(rawValue, user, group) }
    }

    /// fsync(2): what was written is on the disk when this returns.
    public func sync() throws(SystemCallError) {
        _ = try Syscall.retrying("fsync") { Glibc.fsync(rawValue) }
    }

    // MARK: inotify

    /// A non-blocking, close-on-exec inotify descriptor.
    public static func inotify() throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(adopting: try Syscall.retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    /// Watches `path` for `mask` on an inotify descriptor; returns the watch.
    @discardableResult
    public func addWatch(_ path: String, _ mask: UInt32) throws(SystemCallError) -> Int32 {
        try Syscall.retrying("inotify_add_watch \(path)") { inotify_add_watch(rawValue, path, mask) }
    }

    // MARK: Terminals (a serial receipt printer)
    //
    // cfmakeraw and cfsetspeed are plain functions of the C library, so no
    // shim is needed for the function-like macros some termios flags are.

    /// The port's settings; ENOTTY when the descriptor is not a terminal.
    public func terminalAttributes() throws(SystemCallError) -> termios {
        var attributes = termios()
        _ = try Syscall.retrying("tcgetattr") { tcgetattr(rawValue, &attributes) }
        return attributes
    }

    /// Applies `attributes` at once (TCSANOW).
    public func setTerminalAttributes(_ attributes: termios) throws(SystemCallError) {
        var attributes = attributes
        _ = try Syscall.retrying("tcsetattr") { tcsetattr(rawValue, TCSANOW, &attributes) }
    }

    /// Discards what was received and not read, and what was written and not sent.
    public func flushTerminal() throws(SystemCallError) {
        _ = try Syscall.retrying("tcflush") { tcflush(rawValue, TCIOFLUSH) }
    }
}
