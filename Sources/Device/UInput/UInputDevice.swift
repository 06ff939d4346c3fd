import SystemCalls
import CEvdev
import Glibc

/// A virtual input device in the kernel, made through /dev/uinput with
/// libevdev-uinput. Events written to it come out of its /dev/input/eventN
/// exactly like a real device's.
///
/// Destroying it (``destroy()`` or `deinit`) unplugs the device. Not thread-safe.
public final class UInputDevice {
    public let capabilities: InputCapabilities
    private var uinput: OpaquePointer?
    private var now = EventTime(seconds: 0, microseconds: 0)

    /// Creates a device with exactly `capabilities` (name, id, properties, codes, axes).
    ///
    /// - Throws: ``InputError`` when /dev/uinput is missing (load the uinput
    ///   module) or not writable.
    public init(capabilities: InputCapabilities, uinputPath: String = "/dev/uinput") throws(InputError) {
        self.capabilities = capabilities
        guard let dev = libevdev_new() else { throw .system(path: uinputPath, operation: "libevdev_new", errno: Errno(rawValue: ENOMEM)) }
        defer { libevdev_free(dev) }
        libevdev_set_name(dev, capabilities.name)
        libevdev_set_id_bustype(dev, Int32(capabilities.id.bustype))
        libevdev_set_id_vendor(dev, Int32(capabilities.id.vendor))
        libevdev_set_id_product(dev, Int32(capabilities.id.product))
        libevdev_set_id_version(dev, Int32(capabilities.id.version))
        for property in capabilities.properties { libevdev_enable_property(dev, UInt32(property.rawValue)) }
        for (type, codes) in capabilities.codes {
            libevdev_enable_event_type(dev, UInt32(type.rawValue))
            for code in codes {
                if type == .absolute {
                    let axis = capabilities.absoluteAxes[code] ?? AbsoluteAxis(minimum: 0, maximum: 1)
                    var info = input_absinfo(
                        value: axis.value, minimum: axis.minimum, maximum: axis.maximum,
                        fuzz: axis.fuzz, flat: axis.flat, resolution: axis.resolution)
                    libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code.rawValue), &info)
                } else {
                    libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code.rawValue), nil)
                }
            }
        }
        do { file = try DeviceFile(path: uinputPath, flags: O_RDWR) }
        catch where error.errno == .noSuchFile { throw .system(path: uinputPath, operation: "open (is the uinput module loaded? modprobe uinput)", errno: .noSuchFile) }
        catch { throw InputError.opening(uinputPath, error.errno) }
        var handle: OpaquePointer?
        // libevdev uses the descriptor it is given and leaves closing it to us (`file`).
        let rc = libevdev_uinput_create_from_device(dev, file.fd, &handle)
        guard rc == 0, let handle else {
            throw .system(path: uinputPath, operation: "UI_DEV_CREATE", errno: Errno(rawValue: -rc))
        }
        uinput = handle
    }

    /// /dev/uinput, open for the device's lifetime.
    private let file: DeviceFile

    deinit { destroy() }

    /// The /dev/input/eventN node of the device, once the kernel made it.
    public var devicePath: String? {
        guard let uinput, let node = libevdev_uinput_get_devnode(uinput) else { return nil }
        return String(cString: node)
    }

    public var isAlive: Bool { uinput != nil }

    /// Unplugs the device.
    public func destroy() {
        guard let handle = uinput else { return }
        uinput = nil
        libevdev_uinput_destroy(handle)
    }

    /// Emits one event (the kernel stamps the time).
    public func emit(_ type: EventType, _ code: EventCode, _ value: Int32) throws(InputError) {
        guard let uinput else { throw .unplugged(path: "uinput \(capabilities.name)") }
        let rc = libevdev_uinput_write_event(uinput, UInt32(type.rawValue), UInt32(code.rawValue), value)
        if rc < 0 { throw .system(path: "uinput \(capabilities.name)", operation: "write", errno: Errno(rawValue: -rc)) }
    }

    /// Emits `events` in order, ignoring their times (replay through the kernel).
    public func emit<S: Sequence>(_ events: S) throws(InputError) where S.Element == InputEvent {
        for e in events { try emit(e.type, e.code, e.value) }
    }

    /// Replays recorded events through the kernel, like evemu-play.
    ///
    /// - Parameters:
    ///   - preservingTiming: sleep between events as the recording did, so
    ///     timing-based decoding (scanner detection) sees the same gaps.
    ///   - afterEachFrame: runs after every SYN_REPORT; a reader on the same
    ///     thread drains the device here, or the kernel's buffer (64 events
    ///     for a keyboard) overflows into SYN_DROPPED.
    public func replay(_ events: [InputEvent], preservingTiming: Bool, afterEachFrame: () -> Void = {}) throws(InputError) {
        var previous = events.first?.time
        for event in events {
            if preservingTiming, let last = previous {
                let gap = event.time.totalMicroseconds - last.totalMicroseconds
                if gap > 0 { usleep(UInt32(min(gap, 5_000_000))) }
            }
            previous = event.time
            try emit(event.type, event.code, event.value)
            if event.isReport { afterEachFrame() }
        }
    }

    /// Ends a frame.
    public func report() throws(InputError) { try emit(.synchronization, .synReport, 0) }
}
