extension EventLoop {
    /// Starts `monitor` and delivers every notice to `handler` on the main
    /// queue, following hotplug: new devices are watched, removed ones unwatched.
    ///
    /// A removed device's descriptor stays open until its watch is cancelled
    /// (the watch holds the device), so dispatch never sees a closed fd.
    /// - Throws: ``InputError`` when inotify cannot be set up.
    public func attach(input monitor: InputMonitor, handler: @escaping @MainActor (InputNotice) -> Void) throws(InputError) {
        let router = InputRouter(loop: self, monitor: monitor, handler: handler)
        let initial = try monitor.start()
        router.hotplug = watch(monitor.hotplugDescriptor) { router.deliver(monitor.handleReadable(monitor.hotplugDescriptor)) }
        router.deliver(initial)
        inputRouters.append(router)
    }

    /// A synthetic device inside the process whose events are decoded by
    /// `monitor` and delivered to the handler given to ``attach(input:handler:)``,
    /// like a kernel device's. For QA injection when /dev/uinput is absent.
    public func attachInProcessDevice(capabilities: InputCapabilities, to monitor: InputMonitor) -> InProcessInputDevice? {
        guard let router = inputRouters.first(where: { $0.monitor === monitor }) else { return nil }
        let device = InProcessInputDevice(capabilities: capabilities) { [weak monitor, unowned router] events in
            guard let monitor else { return }
            let path = "inprocess:\(capabilities.name)"
            // A synthetic tap reports its press and release from inside one call: drawn as one frame
            // after it, as a read holding both would be, not one frame per report.
            MainActor.assumeIsolated { router.deliver(monitor.decodeInProcess(events, from: path), drawNow: false) }
        }
        router.deliver(monitor.addInProcess(device))
        return device
    }

    /// A synthetic device behind a pipe, read by this loop when epoll says
    /// its descriptor is readable and decoded by `monitor` like a kernel
    /// device's (see ``PipeInputDevice``). The loop keeps it while `monitor`
    /// has input attached.
    public func attachPipeDevice(capabilities: InputCapabilities, to monitor: InputMonitor) throws(InputError) -> PipeInputDevice {
        guard let router = inputRouters.first(where: { $0.monitor === monitor }) else {
            throw .system(path: "pipe:\(capabilities.name)", operation: "attach (the input monitor is not running)", errno: .noDevice)
        }
        let device = try PipeInputDevice(capabilities: capabilities)
        router.deliver(monitor.addVirtual(path: device.path, capabilities: capabilities))
        router.pipes.append(watch(device.readDescriptor, keepingAlive: device) { [unowned router, unowned device] in
            router.deliver(monitor.decodeInProcess(device.readAvailable(), from: device.path))
        })
        return device
    }

    /// Removes a device made by ``attachInProcessDevice(capabilities:to:)``.
    public func detachInProcessDevice(_ device: InProcessInputDevice, from monitor: InputMonitor) {
        guard let router = inputRouters.first(where: { $0.monitor === monitor }) else { return }
        router.deliver(monitor.removeInProcess(device))
    }
}

/// Keeps one watch per open input device in step with an ``InputMonitor``.
@MainActor
final class InputRouter {
    unowned let loop: EventLoop
    let monitor: InputMonitor
    let handler: @MainActor (InputNotice) -> Void
    var hotplug: EventLoop.Token?
    /// Watches of pipe devices.
    var pipes: [EventLoop.Token] = []
    private var watches: [ObjectIdentifier: EventLoop.Token] = [:]

    init(loop: EventLoop, monitor: InputMonitor, handler: @escaping @MainActor (InputNotice) -> Void) {
        self.loop = loop
        self.monitor = monitor
        self.handler = handler
    }

    /// Hands every notice of one read to the handler, then draws the frame
    /// they asked for in the same turn of the main queue: not behind the
    /// work they queued there (a view model's tasks), and once for all the
    /// events of the read.
    ///
    /// - Parameter drawNow: false for an in-process device, whose reports
    ///   arrive one by one inside its caller's call: the frame waits for the
    ///   main queue, as before.
    func deliver(_ notices: [InputNotice], drawNow: Bool = true) {
        for notice in notices { handler(notice) }
        resynchronizeWatches()
        if drawNow, !notices.isEmpty { loop.renderIfReady() }
    }

    private func resynchronizeWatches() {
        let open = monitor.openDevices
        let current = Set(open.map(ObjectIdentifier.init))
        for (id, token) in watches where !current.contains(id) {
            token.cancel()
            watches[id] = nil
        }
        for device in open where watches[ObjectIdentifier(device)] == nil {
            let fd = device.fileDescriptor
            watches[ObjectIdentifier(device)] = loop.watch(fd, keepingAlive: device) { [unowned self] in
                self.deliver(self.monitor.handleReadable(fd))
            }
        }
    }
}
