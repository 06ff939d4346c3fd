@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
@testable import HostTransport
import SystemCalls

/// The system calls TellerData makes (through SystemCalls),
/// seen through the types that make them.
@Suite struct SyscallTests {
    /// Inodes of the netlink sockets that exist in this network namespace,
    /// held by a descriptor or by a call still blocked in one.
    static func netlinkSockets() -> Set<String> {
        let table = (try? String(contentsOfFile: "/proc/net/netlink", encoding: .utf8)) ?? ""
        return Set(table.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").last.map(String.init) })
    }

    /// Inodes of the sockets this process has descriptors for.
    static func socketsOpenHere() -> Set<String> {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(descriptors.compactMap { descriptor -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
    }

    /// A netlink socket refuses shutdown(2), and a reader blocked in recv
    /// keeps its socket alive after close(2): only the monitor's stop pipe
    /// ends the reader, which then closes the socket.
    @Test func releasingTheLinkMonitorEndsItsReaderAndItsSocket() async throws {
        let before = Self.socketsOpenHere()
        var monitorSockets: Set<String> = []
        do {
            let monitor = try LinkMonitor { _ in }
            // Other tests may hold a netlink socket for a moment too (address lookups); all of them must go.
            monitorSockets = Self.socketsOpenHere().subtracting(before).intersection(Self.netlinkSockets())
            withExtendedLifetime(monitor) {}
        }
        #expect(!monitorSockets.isEmpty, "the monitor opened no netlink socket")
        #expect(await eventually(timeout: .seconds(30)) { Self.netlinkSockets().isDisjoint(with: monitorSockets) },
                "the reader outlived its monitor, and its netlink socket with it")
    }

    /// The callback holds the sync engine and through it the store; they go
    /// with the monitor, not later on the reader's thread (in `teller drain`
    /// that was during exit, racing SQLite's close).
    @Test func releasingTheLinkMonitorReleasesItsCallbackAtOnce() throws {
        final class Engine: Sendable {}
        weak var engine: Engine?
        do {
            let held = Engine()
            engine = held
            let monitor = try LinkMonitor { _ in withExtendedLifetime(held) {} }
            withExtendedLifetime(monitor) {}
        }
        #expect(engine == nil)
    }

    /// Group write is what the usual umask (022) takes away; the file keeps it.
    @Test func aDurableFileHasExactlyItsModeWhateverTheUmask() throws {
        let directory = TemporaryDirectory("teller-durable")
        let path = directory.file("refresh-token")
        try DurableFile.write(Data("one".utf8), to: path, mode: 0o620)
        try DurableFile.write(Data("two".utf8), to: path, mode: 0o620)
        #expect(FileManager.default.contents(atPath: path) == Data("two".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o620)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["refresh-token"])
    }

    /// What a power cut leaves of a write: its temporary, empty or whole, beside the
    /// file. The terminal's next start removes those and nothing else.
    @Test func aPowerCutsLeftoverTemporariesAreRemovedAndNothingElse() throws {
        let directory = TemporaryDirectory("teller-durable")
        let path = directory.file("refresh-token")
        try DurableFile.write(Data("{}".utf8), to: path)
        for leftover in ["refresh-token.23o12pt3j9xd7", "refresh-token.1z2y3x4w"] {
            #expect(FileManager.default.createFile(atPath: directory.file(leftover), contents: Data()))
        }
        let kept = ["refresh-token.json", "refresh-token.0", "refresh-token.BAK", "refresh-token.23o12pt3j9xd7x", "refresh-tokenx.1z2y3x4w", "teller.db"]
        for name in kept { #expect(FileManager.default.createFile(atPath: directory.file(name), contents: Data("x".utf8))) }
        #expect(DurableFile.removeLeftovers(of: path).sorted() == ["refresh-token.1z2y3x4w", "refresh-token.23o12pt3j9xd7"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == (["refresh-token"] + kept).sorted())
        #expect(FileManager.default.contents(atPath: path) == Data("{}".utf8))
    }

    @Test func aDurableFileErrorNamesTheStepAndTheReason() async throws {
        let path = TemporaryDirectory("teller-durable").file("missing/refresh-token")
        // The temporary name is random (created exclusively); the step and the reason are named.
        let thrown = try #require(await thrownError(DurableFileError.self) { try DurableFile.write(Data("x".utf8), to: path) })
        switch thrown {
        case .system(let operation, let code): #expect(operation.hasPrefix("create \(path).") && code == ENOENT, "\(operation) \(code)")
        }
        let error = DurableFileError.system("create \(path).tmp", ENOENT)
        #expect(error.description == "cannot create \(path).tmp: No such file or directory")
    }
}
