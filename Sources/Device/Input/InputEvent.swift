/// A kernel input event time, as in `struct input_event` (seconds and microseconds).
public struct EventTime: Hashable, Sendable, Comparable {
    public var seconds: Int64
    public var microseconds: Int64

    public init(seconds: Int64, microseconds: Int64) {
        self.seconds = seconds
        self.microseconds = microseconds
    }

    public static let zero = EventTime(seconds: 0, microseconds: 0)

    /// The time in microseconds, saturating at `Int64.min`/`Int64.max`: times
    /// come from recordings and tests as well as the kernel, and comparing or
    /// subtracting them must not trap.
    public var totalMicroseconds: Int64 {
        let (scaled, scaleOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if scaleOverflow { return seconds < 0 ? .min : .max }
        let (total, sumOverflow) = scaled.addingReportingOverflow(microseconds)
        if sumOverflow { return microseconds < 0 ? .min : .max }
        return total
    }

    /// Microseconds from `earlier` to this time, saturating instead of trapping.
    public func microseconds(since earlier: EventTime) -> Int64 {
        let (gap, overflow) = totalMicroseconds.subtractingReportingOverflow(earlier.totalMicroseconds)
        if overflow { return earlier.totalMicroseconds < 0 ? .max : .min }
        return gap
    }

    public init(totalMicroseconds: Int64) {
        self.init(seconds: totalMicroseconds / 1_000_000, microseconds: totalMicroseconds % 1_000_000)
    }

    public static func < (a: Self, b: Self) -> Bool { a.totalMicroseconds < b.totalMicroseconds }
}

/// One evdev event, as the kernel delivers it and evemu records it.
///
/// Decoders take these plain values, so the same code runs on a live device,
/// an evemu recording and a unit test.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var time: EventTime
    public var type: EventType
    public var code: EventCode
    public var value: Int32

    public init(time: EventTime = .zero, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// `SYN_REPORT`: the end of one hardware frame.
    public static func report(at time: EventTime = .zero) -> InputEvent {
        InputEvent(time: time, type: .synchronization, code: .synReport, value: 0)
    }

    public var isReport: Bool { type == .synchronization && code == .synReport }
    public var isDropped: Bool { type == .synchronization && code == .synDropped }

    public var description: String {
        "\(time.seconds).\(time.microseconds) type \(type.rawValue) code \(code.rawValue) value \(value)"
    }
}
