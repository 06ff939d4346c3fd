import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `frame_priority`: check-config takes 0 to 20 and names anything else;
/// the running terminal puts its main thread (input and frames) under
/// SCHED_RR at that priority, or leaves it ordinary at 0, and the threads
/// it starts stay ordinary. (The tests run as root; teller.service allows
/// it through LimitRTPRIO, which deploy/tests/vm-checks proves under systemd.)
@Suite(.tags(.realProcess)) struct FramePriorityTests {
    /// teller.conf's default (docs/configuration.md); TerminalProcess runs its other terminals at 0.
    static let shippedDefault = 5

    func checkConfig(_ text: String) async throws -> (status: Int32, output: String) {
        try await TerminalTests.checkConfig(text, label: "teller-frame-priority")
    }

    @Test(arguments: ["0", "1", "5", "20"]) func aPriorityFrom0To20IsTaken(_ value: String) async throws {
        let result = try await checkConfig("frame_priority = \(value)\n")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: ["21", "-1", "99", "high", "5.5"]) func anythingElseIsNamedWithItsLine(_ value: String) async throws {
        let result = try await checkConfig("# scheduling\nframe_priority = \(value)\n")
        #expect(result.status == 1)
        #expect(result.output.contains("teller.conf:2: frame_priority: '\(value)' is not a whole number from 0 (ordinary scheduling) to 20"),
                "\(result.output)")
    }

    /// Policy and real-time priority of each thread of `pid`, the main thread first
    /// (/proc/PID/task/TID/stat fields 41 and 40; the name in brackets may hold spaces).
    static func scheduling(of pid: pid_t) throws -> [(policy: Int, priority: Int)] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap(Int32.init).sorted { a, b in
            a == pid || (b != pid && a < b)
        }
        return try tasks.map { task in
            let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)
            let fields = stat[stat.range(of: ") ", options: .backwards)!.upperBound...].split(separator: " ")
            // fields[0] is field 3 (state): field N is fields[N - 3].
            return (policy: Int(fields[41 - 3])!, priority: Int(fields[40 - 3])!)
        }
    }

    /// The main thread serves the main queue itself (Device's MainThread):
    /// it waits in poll(2), not parked in sigsuspend under dispatchMain()
    /// while Dispatch's pool runs the frames at ordinary priority.
    @Test func theMainThreadRunsInRealTimeAndTheOthersDoNot() async throws {
        let terminal = try TerminalProcess(host: nil, configuration: ["frame_priority = \(Self.shippedDefault)"])
        try await terminal.start()
        let child = try #require(terminal.child)
        try await terminal.tap("sign-in.pin.1")
        let threads = try Self.scheduling(of: child.pid)
        let waits = try await Self.waits(of: child.pid)
        await terminal.stop()
        #expect(waits.contains { $0.contains("poll") } && !waits.contains { $0.contains("sigsuspend") },
                "the main thread waits in \(waits)")
        let sched_rr = 2
        #expect(threads.first.map { [$0.policy, $0.priority] } == [sched_rr, Self.shippedDefault], "\(threads)")
        #expect(threads.count > 1 && threads.dropFirst().allSatisfy(Self.ordinaryOrIdle), "\(threads)")
        #expect(threads.filter { $0.policy == Self.sched_idle }.count == 1, "the database check's thread: \(threads)")
        #expect(child.stderr.contains("frames: real-time priority 5 (SCHED_RR) for input and drawing"), "\(child.stderr)")
    }

    /// Where the main thread of `pid` sleeps, read 20 times 10 ms apart. A read
    /// while the thread runs (drawing a frame, say) gives "0" and is not kept.
    static func waits(of pid: pid_t) async throws -> [String] {
        var waits: [String] = []
        for _ in 0..<20 {
            let wchan = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/wchan", encoding: .utf8)
            if wchan != "0" { waits.append(wchan) }
            try await Task.sleep(for: .milliseconds(10))
        }
        return waits
    }

    @Test func zeroLeavesItOrdinary() async throws {
        let terminal = try TerminalProcess(host: nil, configuration: ["frame_priority = 0"])
        try await terminal.start()
        let child = try #require(terminal.child)
        let threads = try Self.scheduling(of: child.pid)
        await terminal.stop()
        #expect(threads.allSatisfy(Self.ordinaryOrIdle), "\(threads)")
        #expect(child.stderr.contains("frames: ordinary scheduling (frame_priority = 0)"), "\(child.stderr)")
    }

    /// `SCHED_IDLE`, linux/sched.h: the background check of teller.db (DatabaseCheck).
    static let sched_idle = 5

    /// Ordinary scheduling, or the idle class below it: never real-time.
    static func ordinaryOrIdle(_ thread: (policy: Int, priority: Int)) -> Bool {
        (thread.policy == 0 || thread.policy == sched_idle) && thread.priority == 0
    }
}
