#if canImport(Glibc)
import Glibc
#endif

/// What stat(2) says of a path or an open file: for the few places Teller
/// looks at a file before it reads, plays or rewrites it (teller.conf, a recording, the
/// database's size on the technician screen).
public struct FileStatus: Sendable {
    public enum Kind: Equatable, Sendable {
        case regular, directory, characterDevice, blockDevice, socket, pipe, symbolicLink
    }

    public let kind: Kind
    public let size: Int
    /// The permission bits, e.g. 0o640.
    public let permissions: mode_t
    public let owner: uid_t
    public let group: gid_t
    /// Which device a character or block device node is (st_rdev); nil for any other kind.
    public let device: DeviceNumber?

    /// The file at `path`, through symbolic links; nil when there is none
    /// (or it cannot be looked at).
    public init?(path: String) {
        guard let info = try? Syscall.fileStatus(path) else { return nil }
        self.init(info)
    }

    /// The file at `path` itself, a symbolic link included.
    public init?(linkAt path: String) {
        guard let info = try? Syscall.linkStatus(path) else { return nil }
        self.init(info)
    }

    /// The file an open descriptor refers to: what was opened, whatever
    /// has happened to its name since.
    public init?(descriptor: borrowing FileDescriptor) {
        guard let info = try? descriptor.status() else { return nil }
        self.init(info)
    }

    /// What a stat(2) call said; nil for a kind of file Teller never opens.
    public init?(_ info: stat) {
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
        device = kind == .characterDevice || kind == .blockDevice ? DeviceNumber(info.st_rdev) : nil
    }
}

/// A device node's number: the driver (major) and which of its devices (minor), e.g. 4:1 for /dev/tty1.
public struct DeviceNumber: Hashable, Sendable, CustomStringConvertible {
    public let major: UInt32
    public let minor: UInt32

    public init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    /// Splits a `dev_t` as glibc's major() and minor() do (<bits/sysmacros.h>),
    /// which are macros Swift's Glibc module does not import.
    public init(_ device: dev_t) {
        let raw = UInt64(device)
        major = UInt32(truncatingIfNeeded: ((raw & 0x0000_0000_000f_ff00) >> 8) | ((raw & 0xffff_f000_0000_0000) >> 32))
        minor = UInt32(truncatingIfNeeded: (raw & 0x0000_0000_0000_00ff) | ((raw & 0x0000_0fff_fff0_0000) >> 12))
    }

    /// "4:1".
    public var description: String { "\(major):\(minor)" }
}
