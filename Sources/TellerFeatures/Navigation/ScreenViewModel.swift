import TellerCore

/// What the coordinator needs from the view model of any screen on its
/// stack. A new screen conforms and overrides only what it uses; the
/// coordinator never asks which screen it holds.
@MainActor
public protocol ScreenViewModel: AnyObject {
    /// A stable name for logs, `teller ctl status` and tests ("amount").
    var screenName: String { get }
    /// The screen that shows this view model; TellerUI builds it from this.
    /// No default: a view model without a screen does not compile.
    var screenKind: ScreenKind { get }
    /// The screen came on top, first or again after the one above it was
    /// popped: screens that show live data (re)load here.
    func appeared() async
    /// The queue summary changed (or the screen was just built and one is known).
    func summaryChanged(_ summary: QueueSummary)
    /// A sync event, delivered to every screen on the stack.
    func handle(_ event: SyncEvent) async
}

extension ScreenViewModel {
    public func appeared() async {}
    public func summaryChanged(_ summary: QueueSummary) {}
    public func handle(_ event: SyncEvent) async {}
}
