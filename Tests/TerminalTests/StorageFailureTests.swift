import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// The data disk fills up, or turns read-only after an I/O error, on a
/// small loop-mounted ext4: the payment is refused in plain words, there is
/// no receipt and no row, the technical detail is in the log, and the
/// terminal stays alive. Needs root (mount); CI runs as root.
@Suite(.serialized, .tags(.realProcess, .referenceHost)) struct StorageFailureTests {
    static let rich = "DE54500105170426397158"

    /// An 8 MiB ext4 image mounted on a fresh directory, unmounted at the end.
    final class LoopDisk: @unchecked Sendable {
        let image: String
        let mountPoint: String
        private(set) var device = ""

        init(in directory: TemporaryDirectory) async throws {
            image = directory.file("data.img")
            mountPoint = directory.file("mnt")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
            try await Self.run("truncate", "-s", "8M", image)
            try await Self.run("mkfs.ext4", "-q", "-F", image)
            try await Self.run("mount", "-o", "loop,errors=remount-ro", image, mountPoint)
            let source = try await ChildProcess.run("/usr/bin/env", ["findmnt", "-n", "-o", "SOURCE", mountPoint])
            device = source.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Fills every free block (as root, past the reserved blocks too).
        func fill() async throws {
            _ = try await ChildProcess.run("/usr/bin/env", ["dd", "if=/dev/zero", "of=\(mountPoint)/filler", "bs=64k"], timeout: .seconds(60))
            _ = try await ChildProcess.run("/usr/bin/env", ["sync"])
        }

        /// Makes ext4 see an error, so errors=remount-ro turns the filesystem read-only.
        func failToReadOnly() async throws {
            let name = (device as NSString).lastPathComponent
            try Data("1\n".utf8).write(to: URL(fileURLWithPath: "/sys/fs/ext4/\(name)/trigger_fs_error"))
        }

        func unmount() async {
            _ = try? await ChildProcess.run("/usr/bin/env", ["umount", "-l", mountPoint])
        }

        static func run(_ arguments: String...) async throws {
            let result = try await ChildProcess.run("/usr/bin/env", arguments, timeout: .seconds(60))
            guard result.status == 0 else { throw TerminalError.didNotStart("\(arguments.joined(separator: " ")): \(result.stderr)") }
        }
    }

    enum Failure: String, CaseIterable { case full, readOnly }

    @Test(arguments: Failure.allCases) func aPaymentTheDiskCannotTakeIsRefusedInPlainWords(_ failure: Failure) async throws {
        try #require(getuid() == 0, "this test mounts a loop device and needs root")
        let bank = try await ReferenceHost(directory: TemporaryDirectory("e2e-host")).start()
        defer { Task { await bank.stop() } }
        let files = TemporaryDirectory("teller-storage")
        let disk = try await LoopDisk(in: files)
        defer { Task { await disk.unmount() } }
        let terminal = try TerminalProcess(host: bank.url, dataDirectory: "\(disk.mountPoint)/data")
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.signIn()
        try await terminal.openAccount(Self.rich)
        #expect(try await terminal.waitForText("Anna Schmidt"))
        try await bank.setFaults(.init(fail: .init(count: 1000, retryAfter: 1)))

        switch failure {
        case .full: try await disk.fill()
        case .readOnly: try await disk.failToReadOnly()
        }
        let words = failure == .full ? "Not saved: this terminal's storage is full. Nothing was charged. Call a technician."
                                     : "Not saved: this terminal's storage has become read-only. Nothing was charged. Call a technician."
        // A full disk may still take a payment or two into the write-ahead log's
        // already allocated space: those are really saved, and say Queued. Deposit
        // until the disk refuses; every receipt must have its row, the refused one none.
        var receipts = 0
        var said = false
        var texts: [String] = []
        for _ in 0..<20 {
            try await terminal.tap("account.deposit")
            try await terminal.enterAmount("2500")
            try await terminal.tap("review.confirm")
            let outcome = try await eventuallyThrowing(timeout: .seconds(30)) {
                if try await terminal.screen() == "receipt" { return true }
                return try await terminal.texts().contains(words)
            }
            #expect(outcome, "neither a receipt nor the refusal")
            texts = try await terminal.texts()
            if texts.contains(words) {
                said = true
                break
            }
            receipts += 1
            try await terminal.tap("receipt.done")
            try await terminal.openAccount(Self.rich)
        }
        #expect(said, "\(texts)")
        #expect(failure == .full || receipts == 0, "a read-only disk takes nothing")
        #expect(!texts.contains { $0.contains("SQLite") || $0.contains("COMMIT") }, "no SQL on the operator's screen: \(texts)")
        #expect(try await terminal.screen() == "review", "no receipt")
        // Still alive and answering; only what had a receipt is queued, nothing at the bank.
        let status = try await terminal.status()
        #expect(status["queued_count"] as? Int == receipts, "\(receipts) receipts: \(status)")
        #expect(try await bank.journal().isEmpty)
        let child = try #require(terminal.child)
        #expect(child.isRunning)
        #expect(child.stderr.contains("storage: \(failure.rawValue): "), "the technical detail is in the log: \(child.stderr)")
    }
}
