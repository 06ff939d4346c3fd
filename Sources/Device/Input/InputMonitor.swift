import SystemCalls
import CEvdev
import Glibc

/// What the input side tells the application.
public enum InputNotice: Sendable {
    case added(path: String, name: String, kind: InputDeviceKind)
    /// The device disappeared; its touches have been cancelled.
    case removed(path: String, name: String)
    case touch(TouchEvent, path: String)
    /// `time` is the kernel's stamp of the key event that completed the input.
    case keyboard(KeyboardInput, path: String, time: EventTime)
    /// A device that could not be opened (permissions, a grab held elsewhere).
    case failed(InputError)
}

/// Enumerates /dev/input/event*, follows hotplug through inotify, and
/// decodes every device with the decoder its kind calls for.
///
/// Hook ``watchedDescriptors`` into the event loop and call ``handleReadable(_:)``
/// when one of them is readable. Not thread-safe; owned by the main loop.
public final class InputMonitor {
    public struct Configuration: Sendable {
        public var directory: String
        public var transform: DisplayTransform
        public var calibration: AffineMatrix
        /// Take exclusive access to every opened device.
        public var grab: Bool
        /// Kinds to skip (e.g. `.ignored`, or a relative mouse on a kiosk).
        public var ignoredKinds: Set<InputDeviceKind>

        public init(directory: String = "/dev/input", transform: DisplayTransform, calibration: AffineMatrix = .identity, grab: Bool = false, ignoredKinds: Set<InputDeviceKind> = [.ignored]) {
            self.directory = directory
            self.transform = transform
            self.calibration = calibration
            self.grab = grab
            self.ignoredKinds = ignoredKinds
        }
    }

    final class Attached {
        let device: InputDevice
        var touch: TouchDecoder?
        var keyboard: KeyboardDecoder?
        init(_ device: InputDevice, touch: TouchDecoder?, keyboard: KeyboardDecoder?) {
            self.device = device
            self.touch = touch
            self.keyboard = keyboard
        }
    }

    /// Decoders of an in-process device (``InProcessInputDevice``): the
    /// same decoders a kernel device with these capabilities gets.
    final class Virtual {
        let capabilities: InputCapabilities
        var touch: TouchDecoder?
        var keyboard: KeyboardDecoder?
        init(_ capabilities: InputCapabilities, transform: DisplayTransform, calibration: AffineMatrix) {
            self.capabilities = capabilities
            touch = TouchDecoder(capabilities: capabilities, transform: transform, calibration: calibration)
            let kind = capabilities.kind
            keyboard = (kind == .keyboard || kind == .scanner) ? KeyboardDecoder(isScanner: kind == .scanner) : nil
        }
    }

    private var virtuals: [String: Virtual] = [:]

    public private(set) var configuration: Configuration
    private var devices: [String: Attached] = [:]
    /// The inotify descriptor; nil before ``start()``.
    private var notifications: FileDescriptor?

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Paths and kinds of the open devices.
    public var attached: [(path: String, name: String, kind: InputDeviceKind)] {
        devices.values.map { ($0.device.path, $0.device.name, $0.device.kind) }.sorted { $0.path < $1.path }
    }

    /// The inotify descriptor followed by every device descriptor.
    public var watchedDescriptors: [Int32] {
        (hotplugDescriptor >= 0 ? [hotplugDescriptor] : []) + devices.values.map(\.device.fileDescriptor)
    }

    /// The inotify descriptor, readable when devices come or go (-1 before ``start()``).
    public var hotplugDescriptor: Int32 { notifications?.rawValue ?? -1 }

    /// The devices open now; a removed device's descriptor closes when the last reference goes.
    public var openDevices: [InputDevice] {
        devices.values.map(\.device).sorted { $0.path < $1.path }
    }

    /// Starts watching the directory and opens what is already there.
    ///
    /// A missing /dev/input is not an error (no input modules loaded yet):
    /// the parent directory is watched until it appears.
    public func start() throws(InputError) -> [InputNotice] {
        do {
            notifications = try FileDescriptor.inotify()
        } catch {
            throw .system(path: configuration.directory, operation: "inotify_init1", errno: error.errno)
        }
        try addWatches()
        return scan()
    }

    /// Changes rotation or calibration for every device (and devices added later).
    public func update(transform: DisplayTransform, calibration: AffineMatrix) {
        configuration.transform = transform
        configuration.calibration = calibration
        for attached in devices.values where attached.touch != nil {
            attached.touch = TouchDecoder(capabilities: attached.device.capabilities, transform: transform, calibration: calibration)
        }
        for virtual in virtuals.values where virtual.touch != nil {
            virtual.touch = TouchDecoder(capabilities: virtual.capabilities, transform: transform, calibration: calibration)
        }
    }

    /// Registers an in-process device and returns its `.added` notice.
    public func addInProcess(_ device: InProcessInputDevice) -> [InputNotice] {
        addVirtual(path: device.path, capabilities: device.capabilities)
    }

    /// Registers a device that is not under /dev/input (an in-process or a
    /// pipe device) by its pseudo path; its events come in through
    /// ``decodeInProcess(_:from:)``.
    public func addVirtual(path: String, capabilities: InputCapabilities) -> [InputNotice] {
        virtuals[path] = Virtual(capabilities, transform: configuration.transform, calibration: configuration.calibration)
        return [.added(path: path, name: capabilities.name, kind: capabilities.kind)]
    }

    /// Decodes one frame an in-process device delivered, exactly as a
    /// kernel device's events are decoded.
    /// Forgets an in-process device (its play ended): touches still down are
    /// cancelled, as when a panel is unplugged, and the device is gone from the list.
    public func removeInProcess(_ device: InProcessInputDevice) -> [InputNotice] {
        guard let virtual = virtuals.removeValue(forKey: device.path) else { return [] }
        var notices: [InputNotice] = []
        if var tracker = virtual.touch {
            for touch in tracker.cancelAll() { notices.append(.touch(touch, path: device.path)) }
        }
        notices.append(.removed(path: device.path, name: device.capabilities.name))
        return notices
    }

    public func decodeInProcess(_ events: [InputEvent], from path: String) -> [InputNotice] {
        guard let virtual = virtuals[path] else { return [] }
        return Self.decode(events, path: path, touch: &virtual.touch, keyboard: &virtual.keyboard)
    }

    /// Handles a readable descriptor from ``watchedDescriptors``.
    public func handleReadable(_ fd: Int32) -> [InputNotice] {
        if fd == hotplugDescriptor { return drainNotifications() }
        guard let attached = devices.values.first(where: { $0.device.fileDescriptor == fd }) else { return [] }
        return read(attached)
    }

    /// Reads every device without waiting (for loops that poll instead of watching).
    public func pollAll() -> [InputNotice] {
        var notices = drainNotifications()
        for attached in devices.values.sorted(by: { $0.device.path < $1.device.path }) { notices += read(attached) }
        return notices
    }

    /// Opens one device by path (hotplug calls this; tests and tools may too).
    /// - Parameter hotplug: the device just appeared or changed (inotify):
    ///   refused while udev is still setting its group's access, it is
    ///   tried again quietly at udev's next change (IN_ATTRIB).
    public func open(path: String, hotplug: Bool = false) -> [InputNotice] {
        guard devices[path] == nil else { return [] }
        let device: InputDevice
        do {
            device = try InputDevice(path: path, grab: configuration.grab)
        } catch .unplugged {
            return []
        } catch .permissionDenied {
            return Self.permissionNotice(path: path, status: FileStatus(path: path), groups: Syscall.processGroups(), hotplug: hotplug)
        } catch {
            return [.failed(error)]
        }
        let kind = device.kind
        guard !configuration.ignoredKinds.contains(kind) else { return [] }
        let touch = TouchDecoder(capabilities: device.capabilities, transform: configuration.transform, calibration: configuration.calibration)
        let keyboard = (kind == .keyboard || kind == .scanner) ? KeyboardDecoder(isScanner: kind == .scanner) : nil
        devices[path] = Attached(device, touch: touch, keyboard: keyboard)
        return [.added(path: path, name: device.name, kind: kind)]
    }

    /// What a refused open says: nothing yet for a device that just
    /// appeared in one of this process's groups whose mode udev has not set
    /// (its change comes as IN_ATTRIB and opens it); else why, and the right
    /// advice: join the group, or give the group read access.
    static func permissionNotice(path: String, status: FileStatus?, groups: [gid_t], hotplug: Bool) -> [InputNotice] {
        guard let status, groups.contains(status.group), status.permissions & 0o040 == 0 else { return [.failed(.permissionDenied(path: path))] }
        if hotplug { return [] }
        return [.failed(.groupCannotRead(path: path, group: Syscall.groupName(status.group), mode: UInt32(status.permissions)))]
    }

    private func read(_ attached: Attached) -> [InputNotice] {
        let path = attached.device.path
        var notices: [InputNotice] = []
        let events: [InputEvent]
        var gone = false
        do {
            events = try attached.device.readAvailable()
        } catch .unplugged {
            events = []
            gone = true
        } catch {
            events = []
            gone = true
            notices.append(.failed(error))
        }
        notices += Self.decode(events, path: path, touch: &attached.touch, keyboard: &attached.keyboard)
        if gone { notices += remove(path: path) }
        return notices
    }

    private static func decode(_ events: [InputEvent], path: String, touch: inout TouchDecoder?, keyboard: inout KeyboardDecoder?) -> [InputNotice] {
        var notices: [InputNotice] = []
        for event in events {
            if var decoder = touch {
                for t in decoder.decode(event) { notices.append(.touch(t, path: path)) }
                touch = decoder
            }
            if var decoder = keyboard {
                for k in decoder.decode(event) { notices.append(.keyboard(k, path: path, time: event.time)) }
                keyboard = decoder
            }
        }
        return notices
    }

    private func remove(path: String) -> [InputNotice] {
        guard let attached = devices.removeValue(forKey: path) else { return [] }
        var notices: [InputNotice] = []
        if var touch = attached.touch {
            for t in touch.cancelAll() { notices.append(.touch(t, path: path)) }
        }
        notices.append(.removed(path: path, name: attached.device.name))
        return notices
    }

    private func scan() -> [InputNotice] {
        let names = (try? Syscall.listDirectory(configuration.directory)) ?? []
        return names.filter { $0.hasPrefix("event") }.sorted().flatMap { open(path: configuration.directory + "/" + $0) }
    }

    private var parentDirectory: String {
        let dir = configuration.directory
        guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { return "/" }
        return String(dir[..<slash])
    }

    private var watchingParent = false

    private func addWatches() throws(InputError) {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)
        do {
            try notifications?.addWatch(configuration.directory, mask)
            watchingParent = false
        } catch where error.errno == .noSuchFile {
            do {
                try notifications?.addWatch(parentDirectory, UInt32(IN_CREATE))
                watchingParent = true
            } catch {
                throw .system(path: parentDirectory, operation: "inotify_add_watch", errno: error.errno)
            }
        } catch {
            throw .system(path: configuration.directory, operation: "inotify_add_watch", errno: error.errno)
        }
    }

    private func drainNotifications() -> [InputNotice] {
        guard hotplugDescriptor >= 0 else { return [] }
        var notices: [InputNotice] = []
        let capacity = 4096
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        var directoryAppeared = false
        while true {
            let count: Int
            do {
                count = try notifications?.read(into: buffer) ?? 0
            } catch {
                break  // EAGAIN: drained
            }
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let header = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: inotify_event.self).pointee
                let nameStart = buffer.baseAddress!.advanced(by: offset + MemoryLayout<inotify_event>.size)
                let name = header.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(header.len)
                if watchingParent {
                    if configuration.directory.hasSuffix("/" + name) { directoryAppeared = true }
                    continue
                }
                guard name.hasPrefix("event") else { continue }
                let path = configuration.directory + "/" + name
                if header.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    notices += remove(path: path)
                } else {
                    // IN_CREATE may come before udev fixes permissions; IN_ATTRIB retries then.
                    notices += open(path: path, hotplug: true)
                }
            }
        }
        if directoryAppeared {
            try? addWatches()
            notices += scan()
        }
        return notices
    }
}
