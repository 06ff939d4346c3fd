import SystemCalls
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
    private let reader: FileDescriptor
    private let writer: FileDescriptor
    /// The end the main loop watches and reads, lent while this device lives.
    public var readDescriptor: Int32 { reader.rawValue }
    /// Bytes read that do not yet make a whole record.
    private var partial: [UInt8] = []

    public init(capabilities: InputCapabilities) throws(InputError) {
        path = "pipe:\(capabilities.name)"
        let ends: Pipe
        do {
            ends = try Self.nonBlockingPipe()
        } catch {
            throw .system(path: path, operation: error.call, errno: error.errno)
        }
        self.capabilities = capabilities
        reader = ends.reader
        writer = ends.writer
    }

    private static func nonBlockingPipe() throws(SystemCallError) -> Pipe {
        let ends = try FileDescriptor.pipe()
        try ends.reader.setNonBlocking()
        try ends.writer.setNonBlocking()
        return ends
    }

    public func emit(_ type: EventType, _ code: EventCode, _ value: Int32) throws(InputError) {
        let now = Syscall.monotonicNow()
        let event = InputEvent(time: EventTime(seconds: Int64(now.tv_sec), microseconds: Int64(now.tv_nsec / 1000)), type: type, code: code, value: value)
        let bytes = event.kernelBytes
        let written: IOResult<Int>
        do {
            written = try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in try writer.writeAvailable(raw) }
            }.get()
        } catch {
            throw .system(path: path, operation: "write", errno: error.errno)
        }
        // A whole record or none: a pipe takes up to PIPE_BUF bytes at once.
        guard written.value == bytes.count else { throw .system(path: path, operation: "write", errno: .wouldBlock) }
    }

    /// Every whole record that has arrived, in order; never blocks.
    public func readAvailable() -> [InputEvent] {
        var buffer = [UInt8](repeating: 0, count: 64 * InputEvent.kernelSize)
        // Until the pipe is empty; an error on a pipe this object owns ends the batch like an empty one.
        while let count = (try? buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemCallError) in try reader.readAvailable(into: raw) }
        }.get())?.value, count > 0 {
            partial += buffer[0..<count]
        }
        let whole = partial.count - partial.count % InputEvent.kernelSize
        let events = partial.withUnsafeBytes { InputEvent.decodeKernelEvents(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
        partial.removeFirst(whole)
        return events
    }
}
