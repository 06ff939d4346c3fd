import FoundationEssentials
import Observation
import TellerCore

/// Owns navigation as state: the session phase and one stack of screens,
/// each a route with its view model. Signing out or locking replaces the
/// whole stack. It also feeds the status bar and forwards sync events.
///
/// It is `@Observable`, as every view model is: what a frame reads of it
/// (the stack, the phase, whether the host answers) redraws the screen when
/// it changes, with no call to ask for it (docs/architecture.md, "Redraw
/// from state").
@MainActor @Observable
public final class Coordinator: Navigator {
    public let dependencies: FeatureDependencies
    public private(set) var phase: SessionPhase = .signedOut
    /// One screen on the stack. Sign-in and the lock screen stand alone and
    /// have no route.
    public struct Entry {
        public let route: Route?
        public let model: any ScreenViewModel
    }

    public private(set) var stack: [Entry] = []
    public let statusBar: StatusBarViewModel
    public private(set) var isOnline = false
    public private(set) var signInMode: SignInMode?
    @ObservationIgnored private var lastActivity: Date
    @ObservationIgnored private var eventTask: Task<Void, Never>?
    /// Tasks started by screens, so tests can wait for them.
    @ObservationIgnored private var pending: [Task<Void, Never>] = []
    /// The status refresh in flight, if any: refreshes run one after the
    /// other, so an older count never overwrites a newer one, and each
    /// caller returns only once what it read is shown.
    @ObservationIgnored private var statusRefresh: Task<Void, Never>?

    public init(dependencies: FeatureDependencies) {
        self.dependencies = dependencies
        statusBar = StatusBarViewModel(dependencies: dependencies)
        lastActivity = dependencies.clock.now()
        stack = [signedOutEntry()]
    }

    /// The view model of the screen on top.
    public var current: any ScreenViewModel { stack[stack.count - 1].model }

    /// The signed-in routes, bottom first; empty while signed out or locked.
    public var routes: [Route] { stack.compactMap(\.route) }

    public var signedInOperator: Operator? { phase.signedInOperator }

    /// The wall-clock time screens show, moved by ``tick()``.
    public var now: Date { statusBar.now }

    /// Starts listening to the sync engine, then reads its status: an event
    /// published in between is not lost (the engine may already be running,
    /// and a problem is published once, not per retry).
    public func start() async {
        let events = await dependencies.sync.events()
        await refreshStatus()
        eventTask = Task { [weak self] in
            for await event in events {
                await self?.handle(event)
            }
        }
    }

    public func stop() {
        eventTask?.cancel()
        eventTask = nil
    }

    /// Runs screen work (a view model's async action) and remembers it until done.
    public func perform(_ work: @escaping @MainActor () async -> Void) {
        let task = Task { @MainActor in await work() }
        pending.append(task)
    }

    /// Waits for every action started through ``perform(_:)`` (tests, QA).
    public func settle() async {
        while !pending.isEmpty {
            let tasks = pending
            pending.removeAll()
            for task in tasks { await task.value }
        }
    }

    // MARK: Navigator

    public func outboxChanged() {
        perform { await self.refreshStatus() }
    }

    public func printQueueChanged() async {
        await refreshStatus()
    }

    public func push(_ route: Route) {
        guard case .active = phase else { return }
        stack.append(entry(route))
    }

    public func pop() {
        guard routes.count > 1 else { return }
        stack.removeLast()
        show(current)
    }

    public func replaceTop(with route: Route) {
        guard !routes.isEmpty else { return push(route) }
        stack[stack.count - 1] = entry(route)
    }

    public func popToHome() {
        guard case .active = phase else { return }
        stack = [entry(.home)]
    }

    public func signedIn(_ op: Operator, mode: SignInMode) {
        phase = .active(op)
        signInMode = mode
        noteActivity()
        popToHome()
        perform { await self.refreshStatus() }
    }

    public func unlocked() {
        guard case .locked(let op) = phase else { return }
        phase = .active(op)
        noteActivity()
        popToHome()
    }

    public func lock() {
        guard case .active(let op) = phase else { return }
        phase = .locked(op)
        stack = [Entry(route: nil, model: LockedViewModel(dependencies: dependencies, navigator: self, lockedOperator: op))]
    }

    public func signOut() {
        // The journal records it; a failed write keeps nobody signed in.
        switch phase {
        case .active(let op), .locked(let op):
            perform { try? await self.dependencies.session.signOut(op) }
        case .signedOut:
            break
        }
        phase = .signedOut
        signInMode = nil
        stack = [signedOutEntry()]
        statusBar.update(online: isOnline, problem: statusBar.problem, clockVerified: statusBar.clockVerified, lastSyncAt: statusBar.lastSyncAt,
                         summary: nil, signedIn: nil)
    }

    // MARK: Time and activity

    /// A touch or key: postpones the idle lock.
    public func noteActivity() {
        lastActivity = dependencies.clock.now()
    }

    /// Called about once a second: the clock, and the idle lock.
    public func tick() {
        if case .active = phase, dependencies.clock.now().timeIntervalSince(lastActivity) >= dependencies.idleLockAfter {
            lock()
            return
        }
        statusBar.clockTicked()
    }

    // MARK: Building screens

    /// The screen while nobody is signed in: the sign-in, or on a terminal
    /// without a terminal id the technician's notice that it is not
    /// provisioned (nobody can sign in there).
    private func signedOutEntry() -> Entry {
        guard dependencies.terminal.terminalID != nil else {
            let model = UnprovisionedViewModel(dependencies: dependencies, navigator: self)
            perform { await model.appeared() }
            return Entry(route: nil, model: model)
        }
        return Entry(route: nil, model: SignInViewModel(dependencies: dependencies, navigator: self))
    }

    /// A route on the stack with its view model (built in Route.swift), shown.
    private func entry(_ route: Route) -> Entry {
        let model = makeViewModel(route)
        show(model)
        return Entry(route: route, model: model)
    }

    /// A screen comes on top: it gets the summary at once and loads what it shows.
    private func show(_ model: any ScreenViewModel) {
        if let summary = statusBar.summary { model.summaryChanged(summary) }
        perform { await model.appeared() }
    }

    /// The view model of the nearest screen of type `Model` on the stack.
    func nearest<Model: ScreenViewModel>(_ type: Model.Type, where matches: (Model) -> Bool) -> Model? {
        stack.reversed().lazy.compactMap { $0.model as? Model }.first(where: matches)
    }

    // MARK: Sync events

    func handle(_ event: SyncEvent) async {
        switch event {
        case .online: isOnline = true
        case .offline: isOnline = false
        default: break
        }
        for entry in stack {
            await entry.model.handle(event)
        }
        await refreshStatus()
    }

    /// Re-reads the queue summary, sync status and printer for the status
    /// bar. The slips waiting are counted in the print queue itself, so a
    /// slip shows from the moment it is queued, not from the spooler's next pass.
    ///
    /// Refreshes run in the order they were asked for, each after the one
    /// before has been shown. When this returns, the status bar shows what
    /// was true when it was called or later: a caller that queued a slip
    /// and then refreshed can rely on the badge counting it, even while a
    /// sync event's refresh runs at the same time.
    public func refreshStatus() async {
        let previous = statusRefresh
        let refresh = Task { @MainActor in
            await previous?.value
            await self.readAndShowStatus()
        }
        statusRefresh = refresh
        await refresh.value
    }

    private func readAndShowStatus() async {
        let status = await dependencies.sync.status()
        let summary = try? await dependencies.outbox.summary()
        var printer = await dependencies.printer?.printerReport()
        if printer != nil, let waiting = try? await dependencies.printQueue?.waitingPrintJobCount() {
            printer?.waitingJobs = waiting
        }
        isOnline = status.isOnline
        statusBar.update(online: isOnline, problem: status.problem, clockVerified: status.clockVerified, lastSyncAt: status.lastSyncAt,
                         summary: summary, signedIn: signedInOperator)
        if let printer { statusBar.printerChanged(printer) }
        if let summary { current.summaryChanged(summary) }
    }
}
