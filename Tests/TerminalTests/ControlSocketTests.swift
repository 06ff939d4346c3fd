import Foundation
import Testing
@testable import ProcessHarness
#if canImport(Glibc)
import Glibc
import ProcessTestSupport
#endif

/// The control socket as peers that `teller ctl` never is: one that stays
/// silent, one that sends half a line, one that hangs up before its answer.
/// None of them may hold up the screen or another peer.
@Suite(.serialized, .tags(.realProcess)) struct ControlSocketTests {
    @Test func aSilentPeerAndHalfALineHoldUpNeitherTheScreenNorAnotherPeer() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        // Ordering, not a stopwatch: a server that waited on either peer
        // would answer (and drop) that peer at its 10 s deadline before it
        // answered a later peer's status, every time. A server that does not
        // wait answers the status first unless the machine is so loaded that
        // the status itself takes longer than that deadline; such a round
        // shows nothing either way, so it is tried again, up to 5 times.
        var rounds: [String] = []
        var heldUp = true
        while heldUp, rounds.count < 5 {
            let silent = try ControlPeer(terminal.socket)
            let half = try ControlPeer(terminal.socket)
            try half.send("tap sign-in.pin.1")
            // `status` is answered on the main actor (it names the screen), so
            // its answer also shows the main queue is free.
            let asker = try ControlPeer(terminal.socket)
            try asker.send("status\n")
            let status = try #require(await asker.answer(timeout: .seconds(30)))
            #expect(status["ok"] as? Bool == true, "\(status)")
            let answeredFirst = (silent: silent.hasAnswer, half: half.hasAnswer)
            heldUp = answeredFirst.silent || answeredFirst.half
            rounds.append("silent answered first: \(answeredFirst.silent), half a line: \(answeredFirst.half)")

            // Each is dropped at its own deadline with an error; half a line is never run.
            for peer in [silent, half] {
                let answer = try #require(await peer.answer(timeout: .seconds(30)))
                #expect(answer["ok"] as? Bool == false, "\(answer)")
                #expect((answer["error"] as? String ?? "").contains("no command line"), "\(answer)")
            }
        }
        #expect(!heldUp, "in every round a peer that sent no line was answered before a later peer's status: \(rounds)")
        #expect(terminal.child?.isRunning == true)
    }

    @Test func aPeerThatHangsUpBeforeItsAnswerLeavesTheTerminalRunning() async throws {
        let terminal = try TerminalProcess(host: nil)
        try await terminal.start()
        defer { terminal.child?.killNow() }
        do {
            let impatient = try ControlPeer(terminal.socket)
            try impatient.send("status\n")
        }
        // Two answers after the hang-up: the impatient peer's was written first.
        // A write to a closed peer raises SIGPIPE unless the socket refuses it.
        let first = try? await terminal.ctl("status")
        let second = try? await terminal.ctl("status")
        let answered = first != nil && second != nil
        #expect(answered && terminal.child?.isRunning == true,
                "the terminal ended with status \(terminal.child?.terminationStatus.map(String.init) ?? "none") (141 is SIGPIPE)")
    }
}

/// A raw peer of the control socket; closes with the value.
final class ControlPeer {
    private let fd: Int32

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ChildProcessError.failed("socket", errno, "") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long for a test")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ChildProcessError.failed("connect \(path)", code, "")
        }
    }

    deinit { close(fd) }

    /// Writes all of `text`; throws when the terminal will not take it, so a
    /// test never goes on believing a peer sent what it did not.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw ChildProcessError.failed("send to the control socket", errno, "") }
            offset += written
        }
    }

    /// Whether the terminal has written or hung up, without waiting.
    var hasAnswer: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// The JSON object the terminal wrote before closing, or nil when it
    /// wrote nothing within `timeout`.
    func answer(timeout: Duration) async -> [String: Any]? {
        guard await eventually(timeout: timeout, { hasAnswer }) else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            // The terminal writes its answer at once and closes; the read ends there.
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return (try? JSONSerialization.jsonObject(with: Data(received))) as? [String: Any]
    }
}
