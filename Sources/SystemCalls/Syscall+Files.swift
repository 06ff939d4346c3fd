#if canImport(Glibc)
import Glibc
#endif

/// Files and directories by path, and what an open file is.
extension Syscall {
    public static func changeMode(_ fd: Int32, _ mode: mode_t) throws(SystemCallError) {
        _ = try retrying("fchmod") { fchmod(fd, mode) }
    }

    public static func changeOwner(_ fd: Int32, user: uid_t, group: gid_t) throws(SystemCallError) {
        _ = try retrying("fchown") { fchown(fd, user, group) }
    }

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

    /// fstat(2): the open file itself.
    public static func fileStatus(_ fd: Int32) throws(SystemCallError) -> stat {
        var info = stat()
        _ = try retrying("fstat") { fstat(fd, &info) }
        return info
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

    public static func fsync(_ fd: Int32) throws(SystemCallError) {
        _ = try retrying("fsync") { Glibc.fsync(fd) }
    }

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
        guard let fd = try? open(directory, O_RDONLY | O_DIRECTORY) else { return }
        try? fsync(fd)
        try? close(fd)
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

    /// A non-blocking, close-on-exec inotify descriptor.
    public static func inotifyInit() throws(SystemCallError) -> Int32 {
        try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    public static func inotifyAddWatch(_ fd: Int32, _ path: String, _ mask: UInt32) throws(SystemCallError) -> Int32 {
        try retrying("inotify_add_watch \(path)") { inotify_add_watch(fd, path, mask) }
    }

    // MARK: Memory

    /// Maps `length` bytes of `fd` from `offset`, shared and writable (a dumb buffer, a framebuffer).
    public static func mapShared(_ fd: Int32, length: Int, offset: Int) throws(SystemCallError) -> UnsafeMutableRawPointer {
        let address = try retrying("mmap", failed: { $0 == nil || $0 == MAP_FAILED }) {
            mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        }
        return address!
    }

    public static func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        let result = munmap(address, length)
        precondition(result == 0, "munmap of a mapping Teller did not make")
    }

    // MARK: Terminals (a serial receipt printer)
    //
    // cfmakeraw and cfsetspeed are plain functions of the C library, so no
    // shim is needed for the function-like macros some termios flags are.

    /// The port's settings; ENOTTY when the descriptor is not a terminal.
    public static func terminalAttributes(_ fd: Int32) throws(SystemCallError) -> termios {
        var attributes = termios()
        _ = try retrying("tcgetattr") { tcgetattr(fd, &attributes) }
        return attributes
    }

    /// Applies `attributes` at once (TCSANOW).
    public static func setTerminalAttributes(_ fd: Int32, _ attributes: termios) throws(SystemCallError) {
        var attributes = attributes
        _ = try retrying("tcsetattr") { tcsetattr(fd, TCSANOW, &attributes) }
    }

    /// Discards what was received and not read, and what was written and not sent.
    public static func flushTerminal(_ fd: Int32) throws(SystemCallError) {
        _ = try retrying("tcflush") { tcflush(fd, TCIOFLUSH) }
    }
}
