import SystemCalls
import Glibc

/// The open descriptor behind every connection: writes that wait for room,
/// status requests that wait for their answer, each up to its timeout.
///
/// The descriptor is non-blocking, so a printer that stops taking data or
/// never answers holds the caller no longer than ``PrinterTimeouts`` say.
/// Not thread-safe; its descriptor closes when it is released.
final class PrinterChannel {
    let descriptor: FileDescriptor
    let address: String
    let timeouts: PrinterTimeouts
    /// Sockets send with MSG_NOSIGNAL: a closed peer must not raise SIGPIPE.
    private let isSocket: Bool

    init(_ descriptor: consuming FileDescriptor, address: String, timeouts: PrinterTimeouts, isSocket: Bool) {
        self.descriptor = descriptor
        self.address = address
        self.timeouts = timeouts
        self.isSocket = isSocket
    }

    func write(_ bytes: [UInt8]) throws(PrinterError) {
        try write(bytes, stall: timeouts.writeStall)
    }

    /// Writes all of `bytes`; fails when no byte goes for `stall`.
    private func write(_ bytes: [UInt8], stall: Duration) throws(PrinterError) {
        var sent = 0
        var lastProgress = ContinuousClock.now
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) -> IOResult<Int> in
                    let rest = UnsafeRawBufferPointer(rebasing: raw[sent...])
                    return isSocket ? try descriptor.send(rest) : try descriptor.writeAvailable(rest)
                }
            }
            switch result {
            case .success(.processed(let count)):
                sent += count
                lastProgress = .now
            case .success(.wouldBlock):
                let waited = lastProgress.duration(to: .now)
                guard waited < stall else {
                    throw PrinterError(kind: .timedOut(operation: "write", after: stall), address: address)
                }
                try wait(for: POLLOUT, "write", milliseconds: Self.milliseconds(stall - waited))
            case .failure(let error):
                throw PrinterError.using(address, "write", error.errno)
            }
        }
    }

    /// Waits until a serial port has sent every byte the kernel holds for
    /// it (TIOCOUTQ reaches 0), so a slip counts as printed only once its
    /// last byte left the port: a power cut just after cannot cut its tail
    /// without it printing again. Fails when the count stops falling for the
    /// write stall (a printer holding the line with flow control).
    func drainOutput() throws(PrinterError) {
        var last = Int32.max
        var lastProgress = ContinuousClock.now
        while true {
            var pending: Int32 = 0
            do { try descriptor.ioctl(UInt(TIOCOUTQ), &pending) } catch { throw PrinterError.using(address, "TIOCOUTQ", error.errno) }
            if pending <= 0 { return }
            if pending < last {
                last = pending
                lastProgress = .now
            } else if lastProgress.duration(to: .now) >= timeouts.writeStall {
                throw PrinterError(kind: .timedOut(operation: "drain", after: timeouts.writeStall), address: address)
            }
            usleep(5_000)
        }
    }

    /// Sends DLE EOT n and waits for a byte with the fixed bits of a status
    /// answer, passing over anything else that arrives first.
    func requestStatus(_ request: StatusRequest) throws(PrinterError) -> UInt8 {
        try discardInput()
        try write(EscPosEncoder.statusRequest(request), stall: timeouts.statusAnswer)
        let deadline = ContinuousClock.now.advanced(by: timeouts.statusAnswer)
        var other: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                let kind: PrinterError.Kind = other.isEmpty
                    ? .noStatusAnswer(request, after: timeouts.statusAnswer)
                    : .malformedStatusAnswer(request, other)
                throw PrinterError(kind: kind, address: address)
            }
            try wait(for: POLLIN, "read", milliseconds: Self.milliseconds(left))
            guard let count = try read(into: &buffer) else { continue }
            for byte in buffer[..<count] {
                if PrinterStatus.isStatusAnswer(byte) { return byte }
                other.append(byte)
            }
        }
    }

    /// Reads what is waiting and drops it: an earlier answer that came too
    /// late, the printer's answer to DLE EOT bytes it found in image data,
    /// or Automatic Status Back must not pass for the next answer.
    private func discardInput() throws(PrinterError) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while try read(into: &buffer) != nil {}
    }

    /// Reads what has arrived into `buffer`; nil when nothing has.
    private func read(into buffer: inout [UInt8]) throws(PrinterError) -> Int? {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) -> IOResult<Int> in try descriptor.readAvailable(into: raw) }
        }
        switch result {
        case .success(.processed(0)):
            throw PrinterError(kind: .disconnected, address: address)
        case .success(.processed(let count)):
            return count
        case .success(.wouldBlock):
            return nil
        case .failure(let error) where error.errno == .invalidArgument:
            // usblp refuses reads from a printer without an IN endpoint.
            throw PrinterError(kind: .readsNothing, address: address, errno: error.errno)
        case .failure(let error):
            throw PrinterError.using(address, "read", error.errno)
        }
    }

    /// Waits up to `milliseconds` for `events`; returns on a timeout too
    /// (the caller checks its own deadline). A hang-up or error on the
    /// descriptor is the printer going away.
    private func wait(for events: Int32, _ operation: String, milliseconds: Int32) throws(PrinterError) {
        let happened: Int32
        do { happened = try descriptor.wait(for: events, milliseconds: milliseconds) } catch {
            throw PrinterError(kind: .system("poll before \(operation)"), address: address, errno: error.errno)
        }
        if happened & (POLLERR | POLLHUP) != 0 && happened & events == 0 {
            throw PrinterError(kind: .disconnected, address: address)
        }
    }

    /// Whole milliseconds for poll(2), rounded up so a wait never ends just
    /// short of its deadline and spins.
    static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
