import Dispatch
import Glibc
import SystemCalls

/// A receipt printer at the far end of a real line, for the connection
/// tests and the virtual printer: a TCP listener on the loopback
/// (``network(answers:)``) or the master side of a pseudo-terminal whose
/// slave is the "serial port" (``serial(answers:)``).
///
/// A thread of its own keeps every byte it receives and, like an Epson
/// printer, answers each DLE EOT n wherever it finds it in the stream with
/// ``answers``[n] (or stays silent when there is none). Call ``stop()``
/// when done; it closes the descriptors.
public final class FakePrinter: @unchecked Sendable {
    /// Where the terminal's side connects.
    public enum Endpoint: Sendable {
        case network(port: UInt16)
        case serial(path: String)
    }

    public let endpoint: Endpoint
    /// Guards everything below and is the one place the thread and the test meet.
    private let lock = DispatchQueue(label: "teller.fake-printer")
    private var answerBytes: [UInt8: UInt8]
    private var receivedBytes: [UInt8] = []
    private var isStopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by the thread each time bytes have come (``waitForBytes(_:timeout:)``).
    private let arrived = DispatchSemaphore(value: 0)

    private init(endpoint: Endpoint, answers: [UInt8: UInt8]) {
        self.endpoint = endpoint
        answerBytes = answers
    }

    /// The DLE EOT answers, by n (1 to 4); a missing n is never answered.
    public var answers: [UInt8: UInt8] {
        get { lock.sync { answerBytes } }
        set { lock.sync { answerBytes = newValue } }
    }

    /// Every byte received so far, status requests included.
    public var received: [UInt8] { lock.sync { receivedBytes } }

    /// The TCP port on 127.0.0.1 (``network(answers:)`` only).
    public var port: UInt16 {
        guard case .network(let port) = endpoint else { preconditionFailure("not a network printer") }
        return port
    }

    /// The slave pseudo-terminal, /dev/pts/N (``serial(answers:)`` only).
    public var path: String {
        guard case .serial(let path) = endpoint else { preconditionFailure("not a serial printer") }
        return path
    }

    /// Waits until at least `count` bytes have come, up to `timeout`; true
    /// when they have. Woken by the printer's thread as bytes come, not on a
    /// timer. One waiter at a time.
    public func waitForBytes(_ count: Int, timeout: Duration = .seconds(30)) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        while received.count < count {
            // A signal left over from bytes already counted only makes the loop look again.
            if arrived.wait(timeout: deadline) == .timedOut { return received.count >= count }
        }
        return true
    }

    /// Ends the thread and closes the descriptors; waits until it has.
    public func stop() {
        let first: Bool = lock.sync {
            defer { isStopped = true }
            return !isStopped
        }
        if first { finished.wait() }
    }

    private var stopped: Bool { lock.sync { isStopped } }

    // MARK: Network

    /// A printer listening on 127.0.0.1 at a free port, serving one connection at a time.
    public static func network(answers: [UInt8: UInt8]) throws(FakePrinterError) -> FakePrinter {
        // SOCK_STREAM by number, as SystemCalls' Syscall+Sockets.swift explains.
        let listener = socket(AF_INET, 1 | O_CLOEXEC, 0)
        guard listener >= 0 else { throw FakePrinterError(call: "socket") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(listener, raw, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        guard bound else {
            let failure = FakePrinterError(call: "bind/listen 127.0.0.1")
            close(listener)
            throw failure
        }
        let printer = FakePrinter(endpoint: .network(port: UInt16(bigEndian: address.sin_port)), answers: answers)
        KernelThread.detach {
            printer.accept(on: listener)
            close(listener)
            printer.finished.signal()
        }
        return printer
    }

    private func accept(on listener: Int32) {
        while !stopped {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let peer = Glibc.accept(listener, nil, nil)
            guard peer >= 0 else { continue }
            serve(peer, waitsForPeer: false)
            close(peer)
        }
    }

    // MARK: Serial

    /// A printer on the master side of a new pseudo-terminal (openpty); the terminal
    /// opens ``path`` as its serial port.
    /// - Parameter holdsRawSlave: opens the slave itself in raw mode and
    ///   keeps it open, so that it passes bytes unchanged to a side that
    ///   sets no terminal modes (a character device such as /dev/usb/lp0).
    public static func serial(answers: [UInt8: UInt8], holdsRawSlave: Bool = false) throws(FakePrinterError) -> FakePrinter {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw FakePrinterError(call: "openpty") }
        var name = [CChar](repeating: 0, count: 128)
        guard ttyname_r(slave, &name, name.count) == 0 else {
            let failure = FakePrinterError(call: "ttyname_r")
            close(slave)
            close(master)
            throw failure
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if holdsRawSlave {
            var settings = termios()
            tcgetattr(slave, &settings)
            cfmakeraw(&settings)
            tcsetattr(slave, TCSANOW, &settings)
        } else {
            // The terminal under test opens it and sets its own modes.
            close(slave)
            slave = -1
        }
        // Child processes that other suites start must not hold the line open.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        if slave >= 0 { _ = fcntl(slave, F_SETFD, FD_CLOEXEC) }
        let printer = FakePrinter(endpoint: .serial(path: path), answers: answers)
        let (line, heldSlave) = (master, slave)
        KernelThread.detach {
            printer.serve(line, waitsForPeer: true)
            if heldSlave >= 0 { close(heldSlave) }
            close(line)
            printer.finished.signal()
        }
        return printer
    }

    // MARK: The line

    /// Reads and answers until stopped; a network peer that hangs up ends
    /// it, while a pseudo-terminal's master waits for its slave to be opened.
    private func serve(_ fd: Int32, waitsForPeer: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var tail: [UInt8] = []
        while !stopped {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let count = entry.revents & Int16(POLLIN) != 0 ? read(fd, &buffer, buffer.count) : -1
            if count > 0 {
                let chunk = Array(buffer[..<count])
                // Answered before it is counted as received: a test that
                // waits for the bytes then finds the answers already sent.
                answer(requestsIn: tail + chunk, after: tail.count, on: fd)
                lock.sync { receivedBytes += chunk }
                arrived.signal()
                tail = Array((tail + chunk).suffix(2))
            } else if waitsForPeer {
                // No slave open yet, or it was closed: EIO and POLLHUP until one is.
                usleep(5_000)
            } else if count == 0 || entry.revents & Int16(POLLHUP | POLLERR) != 0 {
                return
            }
        }
    }

    /// Answers each DLE EOT n in `bytes` that ends after the first `seen` bytes.
    private func answer(requestsIn bytes: [UInt8], after seen: Int, on fd: Int32) {
        // dropLast(2): a request is three bytes, so none starts in the last two.
        for index in bytes.indices.dropLast(2) where index + 2 >= seen && bytes[index] == 0x10 && bytes[index + 1] == 0x04 {
            guard var answer = answers[bytes[index + 2]] else { continue }
            _ = write(fd, &answer, 1)
        }
    }
}

/// A call that failed while setting up a fake printer, with its errno.
public struct FakePrinterError: Error, CustomStringConvertible {
    public let call: String
    public let errno: Int32

    init(call: String) {
        self.call = call
        errno = Glibc.errno
    }

    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
