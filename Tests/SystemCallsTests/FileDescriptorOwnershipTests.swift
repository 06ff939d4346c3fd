import Glibc
import Testing
import SystemCalls

/// A descriptor has one owner, who closes it exactly once: at the end of
/// its scope (deinit) or by `close()`, which consumes it, so nothing closes
/// it again afterwards.
///
/// The kernel's own table (/proc/self/fd) is the witness. Descriptors under
/// test are moved up to numbers from 600 on, where nothing else in the
/// test process opens one (a new descriptor takes the lowest free number),
/// so a parallel test cannot take a number between a close and the look.
@Suite(.serialized) struct FileDescriptorOwnershipTests {
    /// The file the process's descriptor `number` refers to; nil when that descriptor is closed.
    static func openFile(_ number: Int32) -> String? {
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/fd/\(number)", &target, target.count - 1)
        return length < 0 ? nil : String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A file of this test's own, so that what a descriptor refers to names it alone.
    static func makeFile(_ name: String) throws -> String {
        let path = "/tmp/teller-ownership-\(getpid())-\(name)"
        _ = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        return path
    }

    /// `file` again, at a number of 600 or more (F_DUPFD_CLOEXEC: the lowest free one from there).
    static func movedUp(_ file: consuming FileDescriptor) throws -> FileDescriptor {
        let number = fcntl(file.rawValue, F_DUPFD_CLOEXEC, 600)
        try #require(number >= 600)
        return FileDescriptor(adopting: number)
    }

    @Test func aDescriptorIsClosedWhenItsOwnerGoes() throws {
        let path = try Self.makeFile("deinit")
        defer { unlink(path) }
        let number: Int32
        do {
            let file = try Self.movedUp(try FileDescriptor.open(path, O_RDONLY))
            number = file.rawValue
            #expect(Self.openFile(number) == path)
        }
        #expect(Self.openFile(number) == nil, "the owner went out of scope: its deinit closed the descriptor")
    }

    @Test func aDescriptorClosedByHandIsNotClosedAgain() throws {
        let first = try Self.makeFile("first")
        let second = try Self.makeFile("second")
        defer { unlink(first); unlink(second) }
        let number: Int32
        var successor: FileDescriptor?
        do {
            let file = try Self.movedUp(try FileDescriptor.open(first, O_RDONLY))
            number = file.rawValue
            try file.close()
            #expect(Self.openFile(number) == nil, "close() closed it at once")
            // The number is free again: the next descriptor from 600 on takes it.
            successor = try Self.movedUp(try FileDescriptor.open(second, O_RDONLY))
            #expect(successor?.rawValue == number)
        }
        // Had close() left `file` an owner, its deinit would have closed the
        // number again at the end of the scope, and with it the successor.
        #expect(Self.openFile(number) == second, "the consumed owner closed nothing at the end of its scope")
        successor = nil
        #expect(Self.openFile(number) == nil)
    }

    @Test func aMovedDescriptorHasOneOwner() throws {
        let path = try Self.makeFile("moved")
        defer { unlink(path) }
        let number: Int32
        var kept: FileDescriptor?
        do {
            let file = try Self.movedUp(try FileDescriptor.open(path, O_RDONLY))
            number = file.rawValue
            kept = consume file
        }
        #expect(kept?.rawValue == number)
        #expect(Self.openFile(number) == path, "moved out of its scope: open under its new owner")
        kept = nil
        #expect(Self.openFile(number) == nil, "the new owner closed it")
    }

    @Test func aBorrowedDescriptorIsNotClosed() throws {
        let path = try Self.makeFile("borrowed")
        defer { unlink(path) }
        let owner = try Self.movedUp(try FileDescriptor.open(path, O_RDONLY))
        let status = FileDescriptor.withBorrowed(owner.rawValue) { FileStatus(descriptor: $0) }
        #expect(status?.kind == .regular)
        #expect(Self.openFile(owner.rawValue) == path, "lent, not handed over: still open")
    }
}
