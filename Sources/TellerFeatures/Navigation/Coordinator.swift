import Foundation
import TellerCore

/// Owns navigation as state: the session phase and the route stack, with
/// one view model per route. Signing out or locking replaces the whole
/// stack. It also feeds the status bar and forwards sync events.
@MainActor
public final class Coordinator: Navigator {
    public let dependencies: FeatureDependencies
    public private(set) var phase: SessionPhase = .signedOut
    public private(set) var routes: [Route] = []
    public private(set) var screens: [ScreenModel] = []
    public let statusBar: StatusBarViewModel
    public private(set) var isOnline = false
    public private(set) var signInMode: SignInMode?
    private var lastActivity: Date
    private var eventTask: Task<Void, Never>?
    /// Bumped on every change the screen should show.
    public private(set) var revision = 0
    /// Called after every change (the app schedules a redraw).
    public var onChange: (() -> Void)?
    /// Tasks started by screens, so tests can wait for them.
    private var pending: [Task<Void, Never>] = []

    public init(dependencies: FeatureDependencies) {
        self.dependencies = dependencies
        statusBar = StatusBarViewModel(dependencies: dependencies)
        lastActivity = dependencies.clock.now()
        screens = [.signIn(SignInViewModel(dependencies: dependencies, navigator: self))]
    }

    /// The screen on top.
    public var current: ScreenModel { screens.last! }

    public var signedInOperator: Operator? { phase.signedInOperator }

    /// Starts listening to the sync engine.
    public func start() async {
        let status = await dependencies.sync.status()
        isOnline = status.isOnline
        await refreshStatus()
        let events = await dependencies.sync.events()
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

    public func invalidate() {
        revision += 1
        onChange?()
    }

    public func outboxChanged() {
        perform { await self.refreshStatus() }
    }

    public func push(_ route: Route) {
        guard case .active = phase else { return }
        routes.append(route)
        screens.append(makeScreen(route))
        invalidate()
    }

    public func pop() {
        guard routes.count > 1 else { return }
        routes.removeLast()
        screens.removeLast()
        reloadTop()
        invalidate()
    }

    public func replaceTop(with route: Route) {
        guard !routes.isEmpty else { return push(route) }
        routes[routes.count - 1] = route
        screens[screens.count - 1] = makeScreen(route)
        invalidate()
    }

    public func popToHome() {
        guard case .active = phase else { return }
        routes = [.home]
        screens = [makeScreen(.home)]
        invalidate()
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
        routes = []
        screens = [.locked(LockedViewModel(dependencies: dependencies, navigator: self, lockedOperator: op))]
        invalidate()
    }

    public func signOut() {
        phase = .signedOut
        signInMode = nil
        routes = []
        screens = [.signIn(SignInViewModel(dependencies: dependencies, navigator: self))]
        statusBar.update(online: isOnline, problem: statusBar.problem, clockVerified: statusBar.clockVerified, lastSyncAt: statusBar.lastSyncAt,
                         summary: nil, signedIn: nil)
        invalidate()
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
        invalidate()
    }

    // MARK: Building screens

    private func makeScreen(_ route: Route) -> ScreenModel {
        switch route {
        case .home:
            let home = HomeViewModel(dependencies: dependencies, navigator: self)
            if let summary = statusBar.summary { home.update(summary: summary) }
            return .home(home)
        case .findAccount:
            return .findAccount(FindAccountViewModel(navigator: self))
        case .account(let iban):
            let model = AccountViewModel(dependencies: dependencies, navigator: self, iban: iban)
            perform { await model.load() }
            return .account(model)
        case .amount(let iban, let kind):
            let currency = accountCurrency(iban) ?? dependencies.terminalCurrency
            let model = AmountEntryViewModel(dependencies: dependencies, navigator: self, account: iban, kind: kind, currency: currency)
            perform { await model.load() }
            return .amount(model)
        case .review(let request):
            return .review(ReviewViewModel(dependencies: dependencies, navigator: self, request: request))
        case .receipt(let entry):
            return .receipt(ReceiptViewModel(dependencies: dependencies, navigator: self, entry: entry))
        case .queue:
            let model = QueueViewModel(dependencies: dependencies, navigator: self)
            perform { await model.load() }
            return .queue(model)
        case .diagnostics:
            return .diagnostics(DiagnosticsViewModel(dependencies: dependencies, navigator: self))
        }
    }

    /// The currency of an account on the stack, if its snapshot is loaded.
    private func accountCurrency(_ iban: IBAN) -> Currency? {
        for screen in screens.reversed() {
            if case .account(let model) = screen, model.iban == iban, let snapshot = model.state.value { return snapshot.currency }
        }
        return nil
    }

    /// Screens that show live data reload when they come back on top.
    private func reloadTop() {
        switch current {
        case .account(let model): perform { await model.load() }
        case .queue(let model): perform { await model.load() }
        case .home(let model): if let summary = statusBar.summary { model.update(summary: summary) }
        default: break
        }
    }

    // MARK: Sync events

    func handle(_ event: SyncEvent) async {
        switch event {
        case .online: isOnline = true
        case .offline: isOnline = false
        default: break
        }
        for screen in screens {
            switch screen {
            case .receipt(let model): model.handle(event)
            case .queue(let model): await model.handle(event)
            case .account(let model): await model.refreshPending()
            default: break
            }
        }
        await refreshStatus()
    }

    /// Re-reads the queue summary and sync status for the status bar.
    public func refreshStatus() async {
        let status = await dependencies.sync.status()
        isOnline = status.isOnline
        let summary = try? await dependencies.outbox.summary()
        statusBar.update(online: isOnline, problem: status.problem, clockVerified: status.clockVerified, lastSyncAt: status.lastSyncAt,
                         summary: summary, signedIn: signedInOperator)
        if let summary, case .home(let home) = current { home.update(summary: summary) }
        invalidate()
    }
}
