import Foundation
import Testing
import Synchronization
import SystemCalls
@testable import ProcessHarness
#if canImport(Glibc)
import Glibc
import ProcessTestSupport
#endif

/// `teller ctl-bridge` between a real terminal's control socket and a
/// stand-in for the virtual device's virtio-serial port: a listening UNIX
/// socket the bridge connects to, where each accepted connection is one host
/// client of qemu's socket and its close is that client hanging up. (An
/// answer for a client that has gone cannot reach the next one here, where
/// each client is a connection of its own; qa-check's boot stage checks
/// that case on the real port, `check_control_channel` in teller_vm.py.)
@Suite(.serialized, .tags(.realProcess)) struct ControlBridgeTests {
    let terminal: TerminalProcess
    let port: PortStandIn
    let bridge: ChildProcess

    init() async throws {
        terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        port = try PortStandIn(terminal.directory.file("port.sock"))
        bridge = try ChildProcess(terminal.teller, ["ctl-bridge", "--port", port.path, "--socket", terminal.socket])
    }

    func stop() {
        bridge.killNow()
        terminal.child?.killNow()
    }

    @Test func severalClientsInARowEachGetTheirAnswer() async throws {
        defer { stop() }
        for round in 1...3 {
            let client = try await port.nextClient()
            try client.send("status\n")
            let answer = try #require(await client.answerLine(), "client \(round) got no answer; bridge: \(bridge.stderr)")
            #expect(answer["ok"] as? Bool == true, "client \(round): \(answer)")
            client.hangUp()
        }
        #expect(bridge.isRunning)
    }

    @Test func aTaggedRequestIsAnsweredWithItsTag() async throws {
        defer { stop() }
        let client = try await port.nextClient()
        try client.send("@t-1 status\n")
        let answer = try #require(await client.answerLine())
        #expect(answer["id"] as? String == "t-1" && answer["ok"] as? Bool == true, "\(answer)")
    }

    /// The port signals (SIGIO) while a command runs, as the real virtio
    /// port does when qemu's news of a host connect, on its control queue,
    /// comes after the line was read: a tagged answer still reaches its
    /// client (`teller ctl` skips answers with another tag, so none can
    /// mislead); an untagged one is dropped, its client could not tell.
    @Test func aTaggedAnswerSurvivesPortSignalsWhileItsCommandRuns() async throws {
        defer { stop() }
        // Once it has connected, the bridge counts SIGIO (before, the signal would end it).
        let client = try await port.nextClient()
        // From a kernel thread of its own, so a busy cooperative pool cannot pause the signals.
        let pid = bridge.pid
        let stopping = StopFlag()
        let signalling = KernelThread.start {
            while !stopping.raised.load(ordering: .relaxed) {
                kill(pid, SIGIO)
                usleep(200)
            }
        }
        defer {
            stopping.raised.store(true, ordering: .relaxed)
            signalling.join()
        }
        try client.send("@t-3 ui\n")
        let answer = try #require(await client.answerLine(), "the tagged answer was dropped; bridge: \(bridge.stderr)")
        #expect(answer["id"] as? String == "t-3" && answer["ok"] as? Bool == true, "\(answer)")
        try client.send("ui\n")
        #expect(client.readLine(timeout: .seconds(3)) == nil, "an untagged answer came through a port that signalled meanwhile")
        #expect(bridge.stderr.contains("its untagged answer is dropped"), "\(bridge.stderr)")
    }

    @Test func oneClientMaySendSeveralLines() async throws {
        defer { stop() }
        let client = try await port.nextClient()
        try client.send("status\nui\n")
        let status = try #require(await client.answerLine())
        let ui = try #require(await client.answerLine())
        #expect((status["result"] as? [String: Any])?["queued_count"] != nil, "\(status)")
        #expect((ui["result"] as? [String: Any])?["identifier"] != nil || (ui["result"] as? [String: Any])?["children"] != nil, "\(ui)")
    }

    @Test func halfALineFromAClientThatHangsUpNeverReachesTheNext() async throws {
        defer { stop() }
        let leaving = try await port.nextClient()
        try leaving.send("tap sign-in.pin.")
        leaving.hangUp()
        // Glued to the half line, this would be "tap sign-in.pin.status": an unknown element.
        let next = try await port.nextClient()
        try next.send("status\n")
        let answer = try #require(await next.answerLine(), "bridge: \(bridge.stderr)")
        #expect(answer["ok"] as? Bool == true, "\(answer)")
    }

    @Test func aSilentClientLeavesNothingBehind() async throws {
        defer { stop() }
        let silent = try await port.nextClient()
        silent.hangUp()
        let next = try await port.nextClient()
        try next.send("status\n")
        let answer = try #require(await next.answerLine(), "bridge: \(bridge.stderr)")
        #expect(answer["ok"] as? Bool == true, "\(answer)")
    }

    @Test func halfALineThatSitsIsAnsweredWithAnErrorAndTheClientCanGoOn() async throws {
        defer { stop() }
        let client = try await port.nextClient()
        try client.send("sta")
        let refused = try #require(await client.answerLine(), "half a line was never answered; bridge: \(bridge.stderr)")
        #expect(refused["ok"] as? Bool == false, "\(refused)")
        #expect((refused["error"] as? String ?? "").contains("no command line"), "\(refused)")
        try client.send("status\n")
        let answer = try #require(await client.answerLine())
        #expect(answer["ok"] as? Bool == true, "\(answer)")
    }

    @Test func aMissingPortIsNamed() async throws {
        defer { stop() }
        let result = try await ChildProcess.run(terminal.teller, ["ctl-bridge", "--port", terminal.directory.file("no-such-port")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no-such-port"), "\(result.stderr)")
    }
}

/// `teller ctl` against a server that behaves like qemu's end of the
/// virtual device's port: it keeps the connection open after the answer,
/// and an answer left for an earlier client that hung up comes first.
@Suite(.tags(.realProcess)) struct ControlClientLineTests {
    @Test func ctlTakesItsOwnAnswerAndEndsAtItsLineFeed() async throws {
        let directory = TemporaryDirectory("teller-ctl-line")
        let port = try PortStandIn(directory.file("qemu.sock"))
        // The server is a kernel thread of its own: on the cooperative pool, a
        // test run that keeps both cores busy could hold it past ctl's 30 s.
        let request = Mutex<String?>(nil)
        @Sendable func serve(_ client: HostClient, _ line: String) {
            request.withLock { $0 = line }
            let tag = line.split(separator: " ", maxSplits: 1).first.map { String($0.dropFirst()) } ?? ""
            try? client.send(#"{"id":"someone-else","ok":true,"result":{"screen":"stale"}}"# + "\n")
            try? client.send(#"{"id":"\#(tag)","ok":true,"result":{"screen":"home"}}"# + "\n")
            // Held open until ctl hangs up: a client reading to the end would
            // wait out its own 30 s deadline and fail.
            _ = client.readLine(timeout: .seconds(90))
        }
        // Without a client or its line the thread ends with `request` nil,
        // which the `#require` below reports.
        let server = KernelThread.start {
            if let client = port.nextClientWaiting(timeout: .seconds(60)), let line = client.readLine() {
                serve(client, line)
            }
        }
        let ctl = try ChildProcess(TestProducts.executable("teller"), ["ctl", "--socket", port.path, "status"])
        defer { ctl.killNow(); server.join() }
        #expect(await ctl.waitForExit(timeout: .seconds(90)), "ctl did not return")
        // "@TAG status": the tag is what tells this client's answer from another's.
        let sent = try #require(request.withLock { $0 }, "ctl never sent its request; \(ctl.stderr)")
        let parts = sent.split(separator: " ", maxSplits: 1)
        #expect(parts.count == 2 && parts[0].hasPrefix("@") && parts[1] == "status", "\(sent)")
        #expect(ctl.terminationStatus == 0, "\(ctl.stderr)")
        #expect(ctl.stdout.contains("\"home\"") && !ctl.stdout.contains("stale"), "\(ctl.stdout)")
    }

    /// `--timeout` is how long ctl waits for the answer: against a server
    /// that takes the line and never answers, ctl gives up after it, names
    /// it, and exits 1 (ctl's own 30 s would say "within 30 s").
    @Test func ctlWaitsForItsAnswerAsLongAsItIsTold() async throws {
        let directory = TemporaryDirectory("teller-ctl-timeout")
        let port = try PortStandIn(directory.file("silent.sock"))
        let taken = Mutex(false)
        let server = KernelThread.start {
            if let client = port.nextClientWaiting(timeout: .seconds(60)), client.readLine() != nil {
                taken.withLock { $0 = true }
                _ = client.readLine(timeout: .seconds(90))
            }
        }
        let ctl = try ChildProcess(TestProducts.executable("teller"), ["ctl", "--timeout", "2", "--socket", port.path, "status"])
        defer { ctl.killNow(); server.join() }
        #expect(await ctl.waitForExit(timeout: .seconds(25)), "ctl did not give up after its 2 s")
        #expect(taken.withLock { $0 }, "ctl never sent its line")
        #expect(ctl.terminationStatus == 1, "\(ctl.stderr)")
        #expect(ctl.stderr.contains("did not answer within 2 s"), "\(ctl.stderr)")
    }

    /// The terminal answers a peer it refuses (or whose line came too late)
    /// without the peer's tag, and closes: ctl shows that answer, not
    /// "closed the connection without an answer".
    @Test func ctlShowsAnUntaggedAnswerBeforeTheClose() async throws {
        let directory = TemporaryDirectory("teller-ctl-untagged")
        let port = try PortStandIn(directory.file("refusing.sock"))
        let refusal = "permission denied: only the terminal's user and group may use the control socket"
        let server = KernelThread.start {
            if let client = port.nextClientWaiting(timeout: .seconds(60)) {
                try? client.send(#"{"ok":false,"error":"\#(refusal)"}"# + "\n")
                client.hangUp()
            }
        }
        let ctl = try ChildProcess(TestProducts.executable("teller"), ["ctl", "--socket", port.path, "status"])
        defer { ctl.killNow(); server.join() }
        #expect(await ctl.waitForExit(timeout: .seconds(60)), "ctl did not return")
        #expect(ctl.terminationStatus == 1, "\(ctl.stderr)")
        #expect(ctl.stderr.contains(refusal), "\(ctl.stderr)")
    }

    /// A timeout that is not a whole number of seconds from 1 to an hour is
    /// refused by name before anything is sent.
    @Test(arguments: ["0", "-5", "2.5", "soon", "3601"])
    func aBadTimeoutIsRefusedByName(_ value: String) async throws {
        let result = try await ChildProcess.run(TestProducts.executable("teller"), ["ctl", "--socket", "/nonexistent/ctl.sock", "--timeout", value, "status"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--timeout '\(value)'"), "\(result.stderr)")
    }
}

/// A listening UNIX socket; each accepted connection is one host client.
final class PortStandIn: Sendable {
    let path: String
    private let listener: Int32

    init(_ path: String) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long for a test")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw ChildProcessError.failed("listen \(path)", errno, "") }
    }

    deinit { close(listener) }

    /// The next connection within `timeout`, blocking the calling thread; nil without one.
    func nextClientWaiting(timeout: Duration) -> HostClient? {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        let fd = accept(listener, nil, nil)
        return fd >= 0 ? HostClient(fd) : nil
    }

    /// The next connection, within 60 s (the bridge opens the port again
    /// after each client), or an error.
    func nextClient() async throws -> HostClient {
        let listener = listener
        guard await eventually(timeout: .seconds(60), {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, 0) > 0
        }) else { throw ChildProcessError.failed("nobody connected to \(path)", 0, "") }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw ChildProcessError.failed("accept", errno, "") }
        return HostClient(fd)
    }
}

/// Set once, read by a thread (a class: Swift 6.0's closures cannot capture an `Atomic` itself).
final class StopFlag: Sendable {
    let raised = Atomic(false)
}

/// One host client of the port; reads answers a line at a time.
final class HostClient {
    private var fd: Int32
    private var received: [UInt8] = []

    init(_ fd: Int32) { self.fd = fd }
    deinit { hangUp() }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw ChildProcessError.failed("send to the bridge", errno, "") }
            offset += written
        }
    }

    func hangUp() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Whether more has arrived, without waiting.
    var hasMore: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return !received.isEmpty || poll(&entry, 1, 0) > 0
    }

    /// The next line, waiting up to `timeout`; nil at the end or without one.
    func readLine(timeout: Duration = .seconds(30)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while received.firstIndex(of: 10) == nil {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard ContinuousClock.now < deadline else { return nil }
            guard poll(&entry, 1, 100) >= 0 || errno == EINTR else { return nil }
            guard entry.revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        let newline = received.firstIndex(of: 10)!
        defer { received.removeSubrange(...newline) }
        return String(decoding: received[..<newline], as: UTF8.self)
    }

    /// The next line as a JSON object.
    func answerLine() async -> [String: Any]? {
        guard let line = readLine() else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
