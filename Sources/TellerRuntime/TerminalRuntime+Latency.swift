import Device

extension TerminalRuntime {
    /// Reports every press, release, key and scan once the frame that first
    /// shows it is on the panel (`log_latency`). Inputs handled before the
    /// same frame each get their own report with that frame's time. Without
    /// a call to this, nothing is recorded.
    public func reportInputLatency(_ report: @escaping @MainActor (InputLatency) -> Void) {
        latency = InputLatencyRecorder(report: report)
    }
}

/// Inputs waiting for the frame that shows them. The loop draws a frame only
/// when the previous one is on the panel, so an input handled while a flip
/// is pending belongs to the next frame, not to the one flipping.
@MainActor
final class InputLatencyRecorder {
    private let report: @MainActor (InputLatency) -> Void
    /// Handled, not yet drawn.
    private var waiting: [(kind: InputLatency.Kind, time: EventTime)] = []
    /// Drawn into the frame the display is presenting.
    private var drawn: [(kind: InputLatency.Kind, time: EventTime)] = []

    init(report: @escaping @MainActor (InputLatency) -> Void) {
        self.report = report
    }

    /// An input the runtime acted on, with the kernel's timestamp.
    func handled(_ kind: InputLatency.Kind, at time: EventTime) {
        waiting.append((kind, time))
    }

    /// A frame is being drawn: what was handled so far is in it. A frame that
    /// failed to present leaves its inputs to the next one.
    func frameDrawn() {
        drawn += waiting
        waiting.removeAll()
    }

    func framePresented(at presented: MonotonicInstant) {
        let shown = drawn
        drawn.removeAll()
        for input in shown {
            report(InputLatency(kind: input.kind, input: MonotonicInstant(input.time), presented: presented))
        }
    }
}
