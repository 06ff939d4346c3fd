import Glibc

/// What stat(2) says of a path or an open file: for the few places teller
/// looks at a file before it reads, plays or rewrites it (teller.conf, a recording, the
/// database's size on the technician screen).
struct FileStatus {
    enum Kind: Equatable {
        case regular, directory, characterDevice, blockDevice, socket, pipe, symbolicLink
    }

    let kind: Kind
    let size: Int
    /// The permission bits, e.g. 0o640.
    let permissions: mode_t
    let owner: uid_t
    let group: gid_t

    /// The file at `path`, through symbolic links; nil when there is none
    /// (or it cannot be looked at).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file at `path` itself, a symbolic link included.
    init?(linkAt path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file an open descriptor refers to: what was opened, whatever
    /// has happened to its name since.
    init?(descriptor: FileDescriptor) {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { return nil }
        self.init(info)
    }

    private init?(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        case S_IFIFO: kind = .pipe
        case S_IFLNK: kind = .symbolicLink
        default: return nil
        }
        size = Int(info.st_size)
        permissions = info.st_mode & 0o7777
        owner = info.st_uid
        group = info.st_gid
    }
}
