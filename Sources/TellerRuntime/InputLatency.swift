import Device

/// How long one input took from the kernel to the panel: the kernel's
/// timestamp of the event and the time the frame that first showed its
/// effect was presented (for DRM, the page flip's completion), both on
/// CLOCK_MONOTONIC.
public struct InputLatency: Hashable, Sendable, CustomStringConvertible {
    /// The inputs that are measured: each one that the terminal acts on.
    public enum Kind: String, Hashable, Sendable {
        /// A finger (or the pointer's button) went down.
        case press
        /// It lifted.
        case release
        /// A key on a keyboard.
        case key
        /// A scanner's whole line.
        case scan
    }

    public var kind: Kind
    public var input: MonotonicInstant
    public var presented: MonotonicInstant

    public init(kind: Kind, input: MonotonicInstant, presented: MonotonicInstant) {
        self.kind = kind
        self.input = input
        self.presented = presented
    }

    /// Whole microseconds from the input to the panel, at the stamps'
    /// resolution, so that it is exactly the difference of the two times
    /// the log line prints. Negative only if the two clocks differ.
    public var microseconds: Int64 {
        let (gap, overflow) = presented.microseconds.subtractingReportingOverflow(input.microseconds)
        return overflow ? (presented > input ? .max : .min) : gap
    }

    /// The log line: "latency: press input=812.004120 presented=812.021337 ms=17.217".
    public var description: String {
        let gap = microseconds
        let fraction = String(gap.magnitude % 1000)
        let milliseconds = (gap < 0 ? "-" : "") + String(gap.magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return "latency: \(kind.rawValue) input=\(input) presented=\(presented) ms=\(milliseconds)"
    }
}
