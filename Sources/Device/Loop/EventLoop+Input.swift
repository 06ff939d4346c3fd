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
}

/// Keeps one watch per open input device in step with an ``InputMonitor``.
@MainActor
final class InputRouter {
    unowned let loop: EventLoop
    let monitor: InputMonitor
    let handler: @MainActor (InputNotice) -> Void
    var hotplug: EventLoop.Token?
    private var watches: [ObjectIdentifier: EventLoop.Token] = [:]

    init(loop: EventLoop, monitor: InputMonitor, handler: @escaping @MainActor (InputNotice) -> Void) {
        self.loop = loop
        self.monitor = monitor
        self.handler = handler
    }

    func deliver(_ notices: [InputNotice]) {
        for notice in notices { handler(notice) }
        resynchronizeWatches()
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
