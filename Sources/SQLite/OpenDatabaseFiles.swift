import SystemCalls
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The database files this process has open through SQLite, by device and
/// inode.
///
/// POSIX record locks belong to the process, and closing *any* descriptor
/// of a file drops all of them (SQLite's "how to corrupt" §2.2). SQLite keeps
/// its own descriptors safe from each other, but a descriptor that Teller
/// opens itself, to read a file's header before SQLite sees it, would drop
/// the lock of a live connection in the same process when closed. Another
/// process then takes itself for the last user, checkpoints, deletes the
/// `-wal` and `-shm`, and this process goes on with a log nobody else sees.
/// So such a descriptor is opened only while no connection has the file.
enum OpenDatabaseFiles {
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private static let connections = Mutex<[Identity: Int]>([:])

    /// Counts a connection to the file at `path`; nil when it cannot be
    /// found (the connection then counts for nothing).
    static func opened(_ path: String) -> Identity? {
        guard let info = try? Syscall.fileStatus(path) else { return nil }
        let identity = Identity(info)
        connections.withLock { $0[identity, default: 0] += 1 }
        return identity
    }

    /// Forgets a connection counted by ``opened(_:)``, once SQLite has closed it.
    static func closed(_ identity: Identity) {
        connections.withLock { counts in
            let left = (counts[identity] ?? 1) - 1
            counts[identity] = left > 0 ? left : nil
        }
    }

    /// Runs `body`, which opens and closes a descriptor of its own on the
    /// file `info` describes, unless a connection of this process has that
    /// file open; then it returns nil without running it. No connection is
    /// counted while `body` runs.
    static func unlessOpen<T, E: Error>(_ info: stat, _ body: () throws(E) -> T) throws(E) -> T? {
        let identity = Identity(info)
        let result: Result<T?, E> = connections.withLock { counts in
            guard counts[identity] == nil else { return .success(nil) }
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
