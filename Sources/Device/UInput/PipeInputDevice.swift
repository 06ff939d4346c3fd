import Glibc

/// A synthetic device behind a pipe: each event is written as the kernel's
/// own `input_event` record, stamped with CLOCK_MONOTONIC as the kernel
/// stamps it, and the main loop reads it from the other end when epoll says
/// the descriptor is readable, the way it reads /dev/input/eventN. What the
/// kernel does between a panel and that descriptor is replaced by write(2);
/// everything after it is the terminal's real path. `teller-bench input`
/// measures input to presented frame through it.
public final class PipeInputDevice: InputEventSink {
    public let capabilities: InputCapabilities
    /// A pseudo path naming the device in notices ("pipe:<name>").
    public let path: String
    /// The end the main loop watches and reads.
    public let readDescriptor: Int32
    private let writeDescriptor: Int32
    /// Bytes read that do not yet make a whole record.
    private var partial: [UInt8] = []

    public init(capabilities: InputCapabilities) throws(InputError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .system(path: "pipe:\(capabilities.name)", operation: "pipe", errno: Errno(rawValue: errno))
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        self.capabilities = capabilities
        path = "pipe:\(capabilities.name)"
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    public func emit(_ type: EventType, _ code: EventCode, _ value: Int32) throws(InputError) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let event = InputEvent(time: EventTime(seconds: Int64(now.tv_sec), microseconds: Int64(now.tv_nsec / 1000)), type: type, code: code, value: value)
        let bytes = event.kernelBytes
        let written = bytes.withUnsafeBytes { write(writeDescriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw .system(path: path, operation: "write", errno: Errno(rawValue: written < 0 ? errno : EAGAIN)) }
    }

    /// Every whole record that has arrived, in order; never blocks.
    public func readAvailable() -> [InputEvent] {
        var buffer = [UInt8](repeating: 0, count: 64 * InputEvent.kernelSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { partial += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        let whole = partial.count - partial.count % InputEvent.kernelSize
        let events = partial.withUnsafeBytes { InputEvent.decodeKernelEvents(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
        partial.removeFirst(whole)
        return events
    }
}
