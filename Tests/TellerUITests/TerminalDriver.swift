import Device
import Foundation
import Graphics
import TellerCore
import TellerFakes
import TellerFeatures
import TellerRuntime
import TellerUI
import Testing
import Widgets

/// The panels Teller ships on: 7-inch 800x480 at scale 1, 1280x800 at 1.5.
struct Display: CustomStringConvertible, Sendable {
    let size: Size
    let scale: Double
    static let small = Display(size: Size(width: 800, height: 480), scale: 1)
    static let large = Display(size: Size(width: 1280, height: 800), scale: 1.5)
    static let all = [small, large]
    /// The same panels turned a quarter (`rotation = 90` or `270`).
    static let portrait = all.map { Display(size: Size(width: $0.size.height, height: $0.size.width), scale: $0.scale) }
    var description: String { "\(size.width)x\(size.height)" }
}

/// A terminal on fakes, driven the way the app drives it: lay out the
/// tree, find a control by identifier, tap it through ``TerminalView``.
@MainActor
final class TerminalDriver {
    let harness: FeatureHarness
    let view: TerminalView
    let fonts: FontLibrary
    /// Kept from layout to layout as the app keeps it: a jump a screen asked for stays where it put the list.
    var state = InteractionState()
    var coordinator: Coordinator { harness.coordinator }

    init(online: Bool = true, terminal: TerminalIdentity = FeatureHarness.terminal) async {
        harness = FeatureHarness(online: online, terminal: terminal)
        view = TerminalView(coordinator: harness.coordinator)
        do { fonts = try FontLibrary() } catch { fatalError("fonts: \(error)") }
        await harness.session.setOnline(online)
        await harness.sync.setLastSync(harness.clock.now().addingTimeInterval(-120))
        await harness.coordinator.start()
    }

    func context(_ display: Display = .small, theme: Theme = .standard, textScale: Double = 1) -> LayoutContext {
        state = view.interactionState(state)
        return LayoutContext(scale: Scale(display.scale), textScale: textScale, theme: theme, fonts: fonts, state: state,
                             direction: view.layoutDirection)
    }

    func layout(_ display: Display = .small, theme: Theme = .standard, textScale: Double = 1) -> LayoutNode {
        context(display, theme: theme, textScale: textScale).layout(view.body(), in: display.size)
    }

    func render(_ display: Display = .small, theme: Theme = .standard, textScale: Double = 1) -> (LayoutNode, Surface) {
        let tree = layout(display, theme: theme, textScale: textScale)
        let surface = Surface(size: display.size)
        Renderer(fonts: fonts).render(tree, into: surface)
        return (tree, surface)
    }

    /// Taps a control that is on screen and enabled, then waits for the work it started.
    func tap(_ identifier: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let tree = layout()
        guard let node = tree.node(withIdentifier: identifier) else {
            Issue.record("no \(identifier) on \(coordinator.current.screenName)", sourceLocation: sourceLocation)
            return
        }
        #expect(node.isEnabled, "\(identifier) is disabled", sourceLocation: sourceLocation)
        // The control must be what a finger at its centre reaches.
        #expect(tree.identifier(at: node.frame.center) == identifier, "\(identifier) is covered", sourceLocation: sourceLocation)
        #expect(view.handleTap(identifier: identifier), "\(identifier) did nothing", sourceLocation: sourceLocation)
        await coordinator.settle()
    }

    /// Taps a screen's control by its identifier, as QA and a finger do.
    func tap<Control: RawRepresentable>(_ control: Control, sourceLocation: SourceLocation = #_sourceLocation) async
    where Control.RawValue == String {
        await tap(control.rawValue, sourceLocation: sourceLocation)
    }

    func tap(_ identifiers: [String], sourceLocation: SourceLocation = #_sourceLocation) async {
        for id in identifiers { await tap(id, sourceLocation: sourceLocation) }
    }

    /// Keys `digits` on a numeric keypad, then its enter key.
    func key(_ digits: String, on keypad: String, enter: Bool = true) async {
        await tap(digits.map { "\(keypad).\($0)" } + (enter ? ["\(keypad).enter"] : []))
    }

    func type(_ text: String) async {
        view.handleText(text)
        await coordinator.settle()
    }

    func signIn() async {
        await key("1001", on: "sign-in.pin")
        await key("1234", on: "sign-in.pin")
    }

    /// An account with some history at the host, fresh or only cached.
    func stockAccount(cachedOnly: Bool = false) async {
        let now = harness.clock.now()
        let eur = FeatureHarness.eur
        let snapshot = AccountSnapshot(
            iban: FeatureHarness.account, holder: "Anna Schmidt", balance: eur(1_248_025), available: eur(1_198_025),
            asOf: cachedOnly ? now.addingTimeInterval(-47 * 60) : now,
            recent: [
                ActivityItem(reference: "H1", kind: .deposit, amount: eur(50_000), bookedAt: now.addingTimeInterval(-3600), description: "Cash"),
                ActivityItem(reference: "H2", kind: .transfer, amount: eur(-12_000), bookedAt: now.addingTimeInterval(-86_400),
                             description: "Rent share to L. Vogel"),
                ActivityItem(reference: "H3", kind: .withdrawal, amount: eur(-20_000), bookedAt: now.addingTimeInterval(-2 * 86_400),
                             description: "Cash"),
                ActivityItem(reference: "H4", kind: .deposit, amount: eur(295_000), bookedAt: now.addingTimeInterval(-3 * 86_400),
                             description: "Salary Stadtwerke Kassel"),
            ])
        await harness.accounts.set(cached: cachedOnly ? snapshot : nil, fresh: cachedOnly ? nil : snapshot, offline: cachedOnly,
                                   for: FeatureHarness.account)
        await harness.outbox.setKnownAvailable(eur(1_198_025), for: FeatureHarness.account)
    }

    /// Home → Find account → the stocked account, by typing its IBAN.
    func openAccount() async {
        await tap(HomeScreen.Control.findAccount)
        await tap(FeatureHarness.account.electronic.map { "find-account.keys.\($0)" })
        await tap(FindAccountScreen.Control.open)
    }

    /// From the account screen: a deposit of `cents` to its receipt.
    func deposit(_ cents: String) async {
        await tap(AccountScreen.Control.deposit)
        await key(cents, on: AmountEntryScreen.Control.keys, enter: false)
        await tap(AmountEntryScreen.Control.review)
        await tap(ReviewScreen.Control.confirm)
    }

    var receipt: ReceiptViewModel? { coordinator.current.receipt }

    /// Waits for a condition that an async event (a sync outcome) makes true:
    /// the coordinator's own work is awaited (settle), its handling of an
    /// event has no signal, so that is polled for up to 10 s (a hang bound).
    func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<1000 {
            await coordinator.settle()
            if condition() { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("condition not met within 10 s", sourceLocation: sourceLocation)
    }
}

extension LayoutNode {
    /// Every node with its ancestors' clip applied: the part of it a finger can reach.
    func visibleNodes(clip: Rect? = nil) -> [(node: LayoutNode, visible: Rect)] {
        let visible = clip.map { frame.intersection($0) } ?? frame
        var result = [(self, visible)]
        let childClip = clipsChildren ? visible : clip
        for child in children { result += child.visibleNodes(clip: childClip) }
        return result
    }

    /// Every label and identifier in the tree, for "is this text on screen".
    var allText: [String] {
        var texts: [String] = []
        forEach { node in
            texts += [node.label, node.value, node.identifier].compactMap { $0 }
            for paint in node.paints { if case .text(let text, _, _, _) = paint { texts.append(text) } }
        }
        return texts
    }
}

extension TerminalDriver {
    /// The terminal's own runtime over this driver's fakes, on an offscreen
    /// display double-buffered as DRM is; not started.
    /// - Parameter clock: the main loop's clock; nil for the monotonic one.
    func runtime(on panel: Display, clock: (any LoopClock)? = nil) -> (runtime: TerminalRuntime, display: OffscreenDisplay) {
        let display = OffscreenDisplay(physicalSize: panel.size, bufferCount: 2)
        let runtime = TerminalRuntime(loop: EventLoop(clock: clock), display: display, fonts: fonts,
                                      monitor: InputMonitor(configuration: .init(transform: display.transform)),
                                      coordinator: coordinator, scale: Scale(panel.scale))
        return (runtime, display)
    }

    /// ``runtime(on:)`` started, with a touchscreen whose kernel-format
    /// events go through a pipe the runtime's main loop watches.
    func startedRuntime(on panel: Display, clock: (any LoopClock)? = nil) throws -> (runtime: TerminalRuntime, display: OffscreenDisplay, touch: TouchInjector) {
        let (runtime, display) = runtime(on: panel, clock: clock)
        runtime.start()
        let device = try runtime.loop.attachPipeDevice(capabilities: TouchInjector.capabilities(name: "test touchscreen"), to: runtime.monitor)
        return (runtime, display, TouchInjector(transform: display.transform, sink: device))
    }
}
