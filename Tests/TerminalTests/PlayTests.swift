import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller ctl play` with the recordings that crashed or swamped the running
/// terminal: each is refused by line (or played safely), the terminal keeps
/// answering, an oversized file is refused with its size, and the device a
/// play adds is removed when it ends.
@Suite(.serialized, .tags(.realProcess)) struct PlayTests {
    static let fixtures = ReferenceHost.repositoryRoot + "/Tests/DeviceTests/Fixtures"

    @Test func theRunningTerminalSurvivesEveryHostileRecording() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        let hostile = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures + "/hostile").filter { $0.hasSuffix(".evemu") }.sorted()
        #expect(hostile.contains("many-property-lines.evemu") && hostile.contains("many-key-lines.evemu") && hostile.contains("slot-maximum-int32.evemu"))
        for name in hostile {
            do {
                try await terminal.ctl("play", Self.fixtures + "/hostile/" + name)
            } catch TerminalError.ctlFailed(_, let message) {
                #expect(message.contains(name) || message.contains("line"), "\(name): the refusal names the file or line: \(message)")
            }
            let child = try #require(terminal.child)
            #expect(child.isRunning, "the terminal died on \(name): \(child.stderr.suffix(2000))")
            #expect(try await terminal.screen() == "sign-in", "still answering after \(name)")
        }
    }

    @Test func anOversizedRecordingIsRefusedWithItsSize() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        let big = terminal.directory.file("big.evemu")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        do {
            try await terminal.ctl("play", big)
            Issue.record("a 17 MiB recording was played")
        } catch TerminalError.ctlFailed(_, let message) {
            #expect(message.contains("\(17 << 20) bytes") && message.contains("at most 16 MiB"), "\(message)")
        }
    }

    static func deviceName(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix("N: ") }.map { String($0.dropFirst(3)) } ?? ""
    }

    @Test func theDeviceAPlayAddsIsRemovedWhenItEnds() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        try await terminal.ctl("play", Self.fixtures + "/two-taps.evemu")
        let child = try #require(terminal.child)
        let log = child.stderr
        // The recording's own device, not the terminal's synthetic touchscreen and keyboard for ctl.
        let device = "inprocess:\(Self.deviceName(of: Self.fixtures + "/two-taps.evemu"))"
        let added = log.components(separatedBy: "\n").filter { $0.contains("input: added") && $0.hasSuffix(device) }
        let removed = log.components(separatedBy: "\n").filter { $0.contains("input: removed") && $0.hasSuffix(device) }
        #expect(added.count == 1, "\(log)")
        #expect(removed.count == 1, "the played device is gone after the play: \(log)")
    }
}
