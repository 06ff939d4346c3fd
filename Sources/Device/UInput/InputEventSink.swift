import SystemCalls
import Glibc

/// Where synthetic input goes: a ``UInputDevice`` (through the kernel) or an
/// ``InProcessInputDevice`` (straight into an ``InputMonitor``'s decoders).
/// The injectors write kernel-format events to either, so QA drives the
/// same decoding path real panels and keyboards use.
public protocol InputEventSink: AnyObject {
    var capabilities: InputCapabilities { get }
    func emit(_ type: EventType, _ code: EventCode, _ value: Int32) throws(InputError)
}

extension InputEventSink {
    /// Ends a frame (SYN_REPORT).
    public func report() throws(InputError) { try emit(.synchronization, .synReport, 0) }

    /// Emits `events` in order; their recorded times are not kept.
    public func emit<S: Sequence>(_ events: S) throws(InputError) where S.Element == InputEvent {
        for event in events { try emit(event.type, event.code, event.value) }
    }
}

extension UInputDevice: InputEventSink {}

/// A synthetic device that lives inside the process: events are stamped
/// with the monotonic clock like the kernel does, collected per frame, and
/// handed to `deliver` at each SYN_REPORT. Used when /dev/uinput is not
/// available (offscreen terminals, CI) by the control socket's touch, tap,
/// type and play commands.
public final class InProcessInputDevice: InputEventSink {
    public let capabilities: InputCapabilities
    /// A pseudo path naming the device in notices ("inprocess:<name>").
    public let path: String
    private var frame: [InputEvent] = []
    private let deliver: ([InputEvent]) -> Void

    public init(capabilities: InputCapabilities, deliver: @escaping ([InputEvent]) -> Void) {
        self.capabilities = capabilities
        path = "inprocess:\(capabilities.name)"
        self.deliver = deliver
    }

    public func emit(_ type: EventType, _ code: EventCode, _ value: Int32) throws(InputError) {
        let now = Syscall.monotonicNow()
        let event = InputEvent(time: EventTime(seconds: Int64(now.tv_sec), microseconds: Int64(now.tv_nsec / 1000)), type: type, code: code, value: value)
        frame.append(event)
        if event.isReport {
            let complete = frame
            frame.removeAll()
            deliver(complete)
        }
    }
}
