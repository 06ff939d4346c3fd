import SystemCalls

/// A moment on CLOCK_MONOTONIC, in nanoseconds since boot.
///
/// The one clock that an input event's kernel timestamp (once the device
/// was asked for it, see ``InputDevice``) and a DRM page flip's completion
/// share, so the two can be subtracted. It never jumps when the wall clock
/// is set.
public struct MonotonicInstant: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// A kernel timestamp in seconds and microseconds (`struct input_event`,
    /// a page-flip event), saturating rather than trapping on absurd values.
    public init(seconds: Int64, microseconds: Int64) {
        self.init(EventTime(seconds: seconds, microseconds: microseconds))
    }

    /// An input event's kernel time. Only a monotonic stamp (a device opened
    /// by ``InputDevice``, a pipe or in-process device) means anything here.
    public init(_ time: EventTime) {
        let (scaled, overflow) = time.totalMicroseconds.multipliedReportingOverflow(by: 1000)
        nanoseconds = overflow ? (time.totalMicroseconds < 0 ? .min : .max) : scaled
    }

    /// The monotonic clock now, for displays whose frames are shown when
    /// `present` returns.
    public static func now() -> MonotonicInstant {
        let now = Syscall.monotonicNow()
        return MonotonicInstant(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }

    /// Whole microseconds since boot, the resolution of the kernel's stamps.
    public var microseconds: Int64 { nanoseconds / 1000 }

    /// Seconds with six decimals, as the kernel's `s.us` stamps read: "1234.000567".
    public var description: String {
        let total = microseconds
        let sign = total < 0 ? "-" : ""
        let fraction = String(total.magnitude % 1_000_000)
        return sign + String(total.magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
}
