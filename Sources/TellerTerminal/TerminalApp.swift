import TellerControl
import TellerConfiguration
import SystemCalls
import Device
import FoundationEssentials
import Graphics
import TellerCore
import TellerData
import TellerFeatures
import TellerRuntime
import TellerUI
import Widgets

/// The running terminal: the composition root that builds the live data
/// layer and the coordinator over it, opens the display and the input
/// devices, and hands them to a ``TerminalRuntime`` on one main loop with
/// the control socket.
@MainActor
public final class TerminalApp {
    public let configuration: Configuration
    public let configurationPath: String
    public let live: LiveData
    public let runtime: TerminalRuntime
    /// Nil without a printer (`printer = none`).
    let printSpooler: PrintSpooler?
    /// The whole-file check of teller.db, in the background a minute after start and then daily.
    let databaseCheck: DatabaseCheck
    /// Removes what the bank settled more than `retention_days` ago (docs/architecture.md, "Retention").
    let pruner: RetentionPruner
    let notifier = SystemdNotifier()
    public private(set) var control: ControlServer?
    /// Set with READY, after the first frame was presented; in-process scenarios wait for it.
    public private(set) var announcedReady = false
    private var tokens: [EventLoop.Token] = []

    public var loop: EventLoop { runtime.loop }
    public var coordinator: Coordinator { runtime.coordinator }
    public var display: any Display { runtime.display }
    public var monitor: InputMonitor { runtime.monitor }
    /// The tree on the panel, after the last frame.
    public var tree: LayoutNode? { runtime.tree }

    /// Builds the terminal from `configuration`: its data, its coordinator
    /// and its display, which is the configured one unless `display` hands
    /// one in (teller-bench's double-buffered offscreen panel).
    public init(configuration: Configuration, configurationPath: String, display: (any Display)? = nil) throws {
        self.configuration = configuration
        self.configurationPath = configurationPath
        // Before anything reads local time: the screens' clock, the daily limit's "today".
        if let zone = configuration.timeZone { SystemTimeZone.use(zone) }
        Self.useLanguage(configuration.regionalFormat, localeDirectory: configuration.localeDirectory)
        live = try LiveData(configuration: configuration)
        databaseCheck = DatabaseCheck(store: live.store)
        pruner = RetentionPruner(store: live.store, settings: .init(retentionDays: configuration.retentionDays), log: { Log.info($0) })
        let display = try display ?? Self.openConfiguredDisplay(configuration)
        Log.info("display: \(display.name)")
        let fonts = try FontLibrary(configuration: FontConfiguration(directory: configuration.fontDirectory))
        let calibration = Self.calibration(configuration.touchCalibration)
        let monitor = InputMonitor(configuration: .init(transform: display.transform, calibration: calibration, grab: configuration.grabInput))

        let session = OperatorSession(store: live.store, host: live.host, supervisors: Set(configuration.supervisors))
        let sync: any SyncStatusPort = live.engine ?? OfflineSyncStatus(clock: live.clock)
        let facts = LiveFactsSource()
        let storageFailures = StorageFailureRecord()
        let time = TimeFormatting(zone: .system)
        let printSpooler = Self.printSpooler(configuration, store: live.store, sync: sync, time: time, session: session)
        self.printSpooler = printSpooler
        let diagnostics = LiveDiagnostics(configuration: configuration, configurationPath: configurationPath, store: live.store, sync: live.engine,
                                          storageFailures: storageFailures, printer: printSpooler) {
            await facts.hardware()
        }
        let coordinator = Coordinator(dependencies: FeatureDependencies(
            accounts: AccountRepository(store: live.store, host: live.host),
            outbox: LoggingOutbox(outbox: live.store, logCommits: configuration.logCommits, failures: storageFailures), sync: sync, session: session,
            // Behind the technician PIN, so only with one; an unprovisioned
            // terminal (no sign-in, no payments) shows its facts to anyone.
            diagnostics: configuration.technicianPINHash != nil || configuration.terminalID == nil ? diagnostics : nil, till: live.store,
            touchCalibration: LiveTouchCalibration(monitor: monitor, display: display, configured: calibration), clock: live.clock,
            terminal: TerminalIdentity(terminalID: configuration.terminalID, branch: configuration.branch),
            time: time, idleLockAfter: configuration.idleLockSeconds,
            terminalCurrency: configuration.currency, printQueue: printSpooler == nil ? nil : live.store, printer: printSpooler))
        runtime = TerminalRuntime(display: display, fonts: fonts, monitor: monitor, coordinator: coordinator,
                                  scale: Scale(configuration.scale ?? Self.automaticScale(for: display.size)),
                                  textScale: configuration.textScale, theme: configuration.highContrast ? .highContrast : .standard)
        facts.app = self
    }

    /// Speaks `format`'s language from its catalog in `localeDirectory`.
    /// A missing or damaged catalog is logged by name and the counter
    /// speaks English rather than not starting: the branch can still work.
    static func useLanguage(_ format: RegionalFormat, localeDirectory: String) {
        do throws(CatalogError) {
            let catalog = try Catalog.load(for: format.language, in: localeDirectory)
            Localization.use(format, catalog: catalog)
            if let catalog { Log.info("language: \(format.language) from \(catalog.path) (\(catalog.count) strings)") }
        } catch {
            var english = format
            english.language = .english
            Localization.use(english)
            Log.error("language: \(error); speaking English")
        }
    }

    /// Starts the display, input, sync and control socket on the main
    /// queue. The caller keeps the main queue running (the process's async
    /// main already drains it); SIGTERM exits cleanly.
    public func start() {
        loop.handleTerminationSignals { [unowned self] signal in self.shutDown(signal: signal) }
        runtime.onFramePresented = { [unowned self] _ in self.framePresented() }
        if configuration.logLatency { runtime.reportInputLatency { Log.info($0.description) } }
        runtime.onDeviceNotice = { notice in Self.log(notice) }
        runtime.onInputUnavailable = { error in Log.warning("input: \(error); only teller ctl can touch this terminal") }
        raiseFramePriority()
        runtime.start()
        startControlSocket()
        databaseCheck.start()
        tokens.append(loop.every(milliseconds: 1000) { [unowned self] in self.coordinator.tick() })
        if let metrics = startMetricsFile() { tokens.append(metrics) }
        if let interval = notifier.watchdogInterval {
            tokens.append(loop.every(milliseconds: max(100, Int(interval * 1000))) { [unowned self] in self.notifier.watchdog() })
        }
        Task { @MainActor in
            await self.startPrinting()
            if let engine = self.live.engine { await engine.start() }
            await self.pruner.start()
            await self.coordinator.start()
        }
    }

    /// Puts this thread, the main queue's, which reads input and draws every
    /// frame, under real-time scheduling (`frame_priority`): it then gets a
    /// core the moment an event arrives, instead of waiting behind the sync
    /// engine, SQLite or another process (docs/device.md measures the
    /// difference). Threads started later keep ordinary scheduling. Where it
    /// is not allowed (no `LimitRTPRIO`), the terminal says so and runs on.
    private func raiseFramePriority() {
        let priority = configuration.framePriority
        guard priority > 0 else { return Log.info("frames: ordinary scheduling (frame_priority = 0)") }
        do throws(SystemCallError) {
            try KernelThread.runCurrentInRealTime(priority: priority)
            Log.info("frames: real-time priority \(priority) (SCHED_RR) for input and drawing")
        } catch {
            Log.warning("frames: \(error); input and drawing wait for a core like any other thread "
                        + "(teller.service allows it with LimitRTPRIO; frame_priority = 0 turns this off)")
        }
    }

    /// Announces READY (systemd and the "ready:" log line that scripts,
    /// tests and `teller-bench startup` wait for) once the first frame is on
    /// the panel: after a DRM page flip completes, not when it is queued, so
    /// READY never precedes what the operator sees.
    func framePresented() {
        guard !announcedReady else { return }
        announcedReady = true
        notifier.ready()
        Log.info("ready: first frame presented on \(display.name)")
        // Start-up is over: what only it touched need not stay resident (issue 30).
        let released = StartupPages.release()
        Log.info("memory: start-up pages of \(released.objects) objects given back (\(released.bytes / 1_048_576) MiB mapped, \(released.refused) refused)")
    }

    /// The widget tree of the screen on top, at the display's size, for QA
    /// (`ctl ui`, `ctl tap`, scenarios); the panel's frames lay out in the runtime.
    public func layoutCurrentScreen() -> LayoutNode { countingQAGlyphLookups { runtime.layoutCurrentScreen() } }

    /// What `teller ctl ui` and scenarios read: the current screen's
    /// accessibility tree, its root carrying the text scale.
    public func accessibilityTree() -> AccessibilityNode { layoutCurrentScreen().accessibilityNode(textScale: configuration.textScale) }

    /// A full rendering of the current screen, for screenshots.
    public func snapshot() -> Surface { countingQAGlyphLookups { runtime.snapshot() } }

    /// Glyph look-ups made for QA rather than for the panel: a scenario run
    /// polls the screen many times a step, and would flatter the hit rate.
    public private(set) var qaGlyphLookups = GlyphCacheStatistics()

    private func countingQAGlyphLookups<T>(_ body: () -> T) -> T {
        let before = runtime.renderer.fonts.glyphCacheStatistics
        let result = body()
        let after = runtime.renderer.fonts.glyphCacheStatistics
        qaGlyphLookups = qaGlyphLookups + GlyphCacheStatistics(hits: after.hits - before.hits, misses: after.misses - before.misses)
        return result
    }

    private static func log(_ notice: InputNotice) {
        switch notice {
        case .added(let path, let name, let kind): Log.info("input: added \(name) (\(kind)) \(path)")
        case .removed(let path, let name): Log.info("input: removed \(name) \(path)")
        case .failed(let error): Log.warning("input: \(error)")
        case .touch, .keyboard: break
        }
    }

    private func shutDown(signal: Int32) -> Never {
        Log.info("teller: signal \(signal), shutting down")
        notifier.stopping()
        control?.shutDown()
        coordinator.stop()
        // The store's database closes with the process; every committed row is already on disk.
        loop.stop(status: 0)
    }

    private func startControlSocket() {
        let path = configuration.controlSocketPath
        do {
            try FileManager.default.createDirectory(atPath: configuration.runtimeDirectory, withIntermediateDirectories: true)
            control = try ControlServer(path: path, handler: self)
            Log.info("control: \(path)")
        } catch {
            Log.warning("control socket unavailable: \(error)")
        }
    }

    // MARK: Configuration to devices

    static func openConfiguredDisplay(_ configuration: Configuration) throws -> any Display {
        let rotation = Rotation(degrees: configuration.rotation) ?? .degrees0
        let drm = DRMDisplay.Configuration(cardPath: configuration.drmCard, mode: configuration.mode.flatMap { ModeRequest($0) }, rotation: rotation)
        switch configuration.display {
        case .auto:
            do {
                return try openDisplay(.automatic(drm))
            } catch {
                Log.warning("display: \(error); drawing offscreen instead")
                return offscreen(configuration, rotation: rotation)
            }
        case .drm: return try openDisplay(.drm(drm))
        case .fbdev: return try openDisplay(.framebuffer(path: configuration.framebufferDevice ?? "/dev/fb0", rotation: rotation))
        case .offscreen: return offscreen(configuration, rotation: rotation)
        }
    }

    private static func offscreen(_ configuration: Configuration, rotation: Rotation) -> any Display {
        OffscreenDisplay(physicalSize: Size(width: configuration.offscreenWidth, height: configuration.offscreenHeight), rotation: rotation)
    }

    /// 800x480 is scale 1; larger panels of the same size class scale up.
    static func automaticScale(for size: Size) -> Double {
        let factor = min(Double(size.width) / 800, Double(size.height) / 480)
        return max(1, (factor * 4).rounded(.down) / 4)
    }

    /// libinput's six numbers (`touch_calibration`, or a matrix the
    /// technician just solved) as the matrix the input monitor applies.
    static func calibration(_ m: [Double]) -> AffineMatrix {
        precondition(m.count == 6, "a touch calibration is six numbers, got \(m.count)")
        return AffineMatrix(m[0], m[1], m[2], m[3], m[4], m[5])
    }

    /// Display and input facts for the technician screen.
    func hardwareFacts() -> DiagnosticsReport.Hardware {
        DiagnosticsReport.Hardware(display: display.name, rotationDegrees: configuration.rotation, inputs: monitor.attached.map {
            DiagnosticsReport.InputDevice(name: $0.name, kind: DiagnosticsReport.InputDevice.Kind($0.kind), path: $0.path)
        })
    }
}

/// Lets the diagnostics port (an actor) ask the main loop for live facts.
@MainActor
final class LiveFactsSource {
    weak var app: TerminalApp?
    func hardware() -> DiagnosticsReport.Hardware? { app?.hardwareFacts() }
}

extension DiagnosticsReport.InputDevice.Kind {
    init(_ kind: InputDeviceKind) {
        switch kind {
        case .multitouchScreen: self = .multitouchScreen
        case .singleTouchScreen: self = .singleTouchScreen
        case .absolutePointer: self = .absolutePointer
        case .relativeMouse: self = .relativeMouse
        case .keyboard: self = .keyboard
        case .scanner: self = .scanner
        case .ignored: self = .ignored
        }
    }
}
