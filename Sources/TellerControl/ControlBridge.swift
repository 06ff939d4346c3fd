import TellerConfiguration
import SystemCalls
import FoundationEssentials
import Glibc
import Synchronization

/// SIGIOs from the port so far (``ControlBridge``); counted by the handler, read by the bridge.
private let portEvents = Atomic<Int>(0)

/// `teller ctl-bridge --port PATH [--socket PATH]`: serves the control
/// protocol on a byte stream that has no connections of its own, the
/// virtual device's virtio-serial port, whose host end is qemu's one UNIX
/// socket. Each complete command line from the port goes to the terminal's
/// control socket as one ordinary `teller ctl` round trip, and the answer
/// goes back as one line.
///
/// The port knows nothing of host clients, so the bridge keeps one client's
/// leftovers from reaching the next:
/// - a host client hanging up reads as the end of the file; a half line it
///   left is dropped, never run or glued to the next client's line, and the
///   port is opened again (closing a virtio port also discards what the
///   kernel still holds for it);
/// - a half line that sits for ``lineDeadlineSeconds`` is answered with the
///   control socket's own error and dropped;
/// - an answer for a client that has gone is dropped, not left for the next:
///   the port signals (SIGIO) every host connect, hang-up and byte batch, and
///   an answer is written only if the port was quiet while its command ran.
///   A client sends one line and waits for its answer before the next; a
///   client that sends more while one runs loses that answer.
/// A client that connects and stays silent holds nothing here; qemu serves
/// one host connection at a time, so the next client waits until it leaves.
///
/// For tests and host-side use, PATH may also be a listening UNIX socket:
/// the bridge connects to it, and each connection stands for one host client.
/// Not thread-safe: one bridge runs on one thread.
public final class ControlBridge {
    /// The control socket's own deadline for a command line (``ControlConnection``).
    static let lineDeadlineSeconds = ControlConnection.readDeadlineSeconds
    /// A host client that stops reading its answer is dropped, as on the control socket.
    static let writeDeadlineSeconds = ControlConnection.writeDeadlineSeconds
    /// While no host client is connected a virtio port reads as ended at
    /// once; the port is opened again after this pause instead of in a spin.
    static let reopenPauseMilliseconds: Int32 = 100

    private let portPath: String
    private let socketPath: String

    public init(portPath: String, socketPath: String) {
        self.portPath = portPath
        self.socketPath = socketPath
    }

    public static func run(_ arguments: [String]) -> Int32 {
        var port: String?
        var socket = ControlClient.defaultSocket
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--port", "--socket":
                guard let value = words.popFirst(), !value.isEmpty else {
                    Log.error("teller ctl-bridge: \(word) needs a path")
                    return 2
                }
                if word == "--port" { port = value } else { socket = value }
            default:
                Log.error("teller ctl-bridge: unknown argument '\(word)'; usage: teller ctl-bridge --port PATH [--socket PATH]")
                return 2
            }
        }
        guard let port else {
            Log.error("teller ctl-bridge: --port is missing; usage: teller ctl-bridge --port PATH [--socket PATH]")
            return 2
        }
        // A client that hangs up before its answer is an error of one write, not the end of the bridge.
        signal(SIGPIPE, SIG_IGN)
        // Counted, not ignored: an ignored SIGIO would never be seen (ControlPort).
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in portEvents.add(1, ordering: .sequentiallyConsistent) }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGIO, &action, nil)
        let bridge = ControlBridge(portPath: port, socketPath: socket)
        do {
            try bridge.serve()
        } catch {
            Log.error("teller ctl-bridge: \(error)")
            return 1
        }
        return 0
    }

    /// Serves host clients until the port cannot be opened any more.
    /// - Throws: ``SystemCallError`` when PATH cannot
    ///   be opened (a missing port, a refused socket).
    public func serve() throws {
        while true {
            // The port closes as it goes, before the pause.
            try serveClient(on: ControlPort(path: portPath))
            usleep(useconds_t(Self.reopenPauseMilliseconds) * 1000)
        }
    }

    /// Answers command lines until the host client hangs up or the port fails.
    private func serveClient(on port: borrowing ControlPort) {
        var pending: [UInt8] = []
        var lineDeadline: ContinuousClock.Instant?
        while true {
            let events: Int32
            do {
                events = try port.descriptor.wait(for: POLLIN, milliseconds: lineDeadline.map(Self.milliseconds(until:)) ?? -1)
            } catch {
                return
            }
            if events == 0 {
                // Half a line is not run: cut short, it could name another command.
                pending = []
                lineDeadline = nil
                let message = "no command line within \(Self.lineDeadlineSeconds) s; a command is one line ending in a newline"
                guard write(ControlAnswer.error(message), to: port) else { return }
                continue
            }
            let bytes: [UInt8]
            do {
                guard let available = try port.descriptor.readAvailable(upTo: 4096) else {
                    if events & (POLLHUP | POLLERR) != 0 { return }
                    continue  // woken with nothing to read yet
                }
                bytes = available
            } catch {
                return  // a port that fails to read (EIO) is as good as hung up
            }
            // The end of the file: the host client has gone, and its half line with it.
            guard !bytes.isEmpty else { return }
            // Everything the port signalled up to here is what was just read.
            let quiet = portEvents.load(ordering: .sequentiallyConsistent)
            pending += bytes
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let answer = relay(line)
                // The client hung up, another connected or it sent more while the
                // command ran: the answer may no longer be its to read. A tagged
                // answer is written all the same: `teller ctl` takes only its own
                // tag, so another client skips it, and the signal may not be a
                // change at all (qemu tells the guest of a host connect on the
                // port's control queue, which can be signalled after the line
                // itself was read; CI's arm64 run lost an answer so, and its
                // client waited 55 s for nothing). An untagged one is dropped:
                // its client could not tell it from its own.
                if portEvents.load(ordering: .sequentiallyConsistent) != quiet, ControlAnswer.splitTag(line).id == nil {
                    Log.warning("ctl-bridge: the port changed while '\(line.prefix(40))' ran; its untagged answer is dropped")
                    pending = []
                    break
                }
                guard write(answer, to: port) else { return }
            }
            if pending.count >= ControlConnection.maximumLineBytes {
                pending = []
                guard write(ControlAnswer.error("a command line is at most \(ControlConnection.maximumLineBytes) bytes"), to: port) else { return }
            }
            if pending.isEmpty {
                lineDeadline = nil
            } else if lineDeadline == nil {
                lineDeadline = .now + .seconds(Self.lineDeadlineSeconds)
            }
        }
    }

    /// The terminal's answer to `line` as it came (tagged like the line,
    /// ``ControlAnswer/splitTag(_:)``), or an error answer saying why there is none.
    private func relay(_ line: String) -> Data {
        var failure = "the terminal closed the connection without an answer"
        do {
            let answer = try ControlClient.exchange(line, with: socketPath, expecting: nil)
            if !answer.isEmpty { return answer }
        } catch {
            failure = "\(error)"
        }
        return ControlAnswer.tagged(ControlAnswer.error(failure), id: ControlAnswer.splitTag(line).id)
    }

    /// Writes `answer` and its line feed; false when the client has gone or
    /// stopped reading, so the caller drops it instead of leaving it for the next.
    private func write(_ answer: Data, to port: borrowing ControlPort) -> Bool {
        var unsent = ArraySlice(Array(answer) + [10])
        let deadline = ContinuousClock.now + .seconds(Self.writeDeadlineSeconds)
        while !unsent.isEmpty {
            guard let sent = try? port.descriptor.writeAvailable(unsent) else { return false }
            unsent = unsent.dropFirst(sent)
            guard sent == 0 else { continue }
            guard ContinuousClock.now < deadline,
                  let events = try? port.descriptor.wait(for: POLLOUT, milliseconds: Self.milliseconds(until: deadline)),
                  events & (POLLHUP | POLLERR) == 0
            else { return false }
        }
        return true
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        // Rounded up, so a wait never ends just short of the deadline and spins.
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// The bridge's end of the channel: a device opened without blocking (the
/// virtio port), or a connection to a listening UNIX socket standing in for
/// it. Closes when it goes.
private struct ControlPort: ~Copyable {
    let descriptor: FileDescriptor

    init(path: String) throws {
        descriptor = try Self.open(path)
    }

    private static func open(_ path: String) throws -> FileDescriptor {
        let descriptor: FileDescriptor
        if FileStatus(path: path)?.kind == .socket {
            descriptor = try UnixSocket.connect(to: path).takeDescriptor()
            try descriptor.setNonBlocking()
        } else {
            descriptor = try FileDescriptor.open(forUpdatingWithoutBlocking: path)
        }
        try descriptor.signalEvents()
        return descriptor
    }
}
