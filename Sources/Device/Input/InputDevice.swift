import SystemCalls
import CEvdev
import Glibc

/// An open /dev/input/eventN, read through libevdev.
///
/// Events carry the kernel's CLOCK_MONOTONIC timestamps (EVIOCSCLOCKID at
/// open), on the same clock as DRM's page-flip times.
///
/// Reading handles SYN_DROPPED: when the kernel's buffer overflowed, the
/// SYN_DROPPED event is passed on and followed by libevdev's resync delta
/// (LIBEVDEV_READ_FLAG_SYNC), so decoders end up with the device's real state.
///
/// Not thread-safe; owned by the main loop.
public final class InputDevice {
    public let path: String
    public let capabilities: InputCapabilities
    private let file: DeviceFile
    private let evdev: OpaquePointer
    public private(set) var isGrabbed = false

    /// The descriptor to watch for readability.
    public var fileDescriptor: Int32 { file.fd }
    public var kind: InputDeviceKind { capabilities.kind }
    public var name: String { capabilities.name }

    /// Opens the device non-blocking.
    ///
    /// - Parameter grab: take exclusive access (EVIOCGRAB), so no other program sees its events.
    /// - Throws: ``InputError`` naming the path; ``InputError/unusableAxis(path:name:problem:)``
    ///   when the device reports an absurd axis range (the same rules as for recordings).
    public init(path: String, grab: Bool = false) throws(InputError) {
        self.path = path
        do {
            file = try DeviceFile(path: path, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            throw InputError.opening(path, error.errno)
        }
        // evdev stamps events with CLOCK_REALTIME unless asked: the monotonic
        // clock is the one DRM stamps page flips with, and it does not jump
        // when the wall clock is set. Asked before libevdev reads anything,
        // since the kernel drops what is queued when the clock changes.
        var clock = CLOCK_MONOTONIC
        do {
            try file.descriptor.ioctl(cevdev_ioctl_set_clock_id(), &clock)
        } catch where error.errno == .notATerminalOrDevice {
            throw InputError.notAnEventDevice(path: path, errno: .notATerminalOrDevice)
        } catch where error.errno == .noDevice {
            throw InputError.unplugged(path: path)
        } catch {
            throw InputError.system(path: path, operation: "EVIOCSCLOCKID", errno: error.errno)
        }
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(file.fd, &handle)
        guard rc == 0, let handle else {
            throw InputError.notAnEventDevice(path: path, errno: Errno(rawValue: -rc))
        }
        do {
            capabilities = try InputDevice.checked(InputDevice.capabilities(of: handle), path: path)
        } catch {
            libevdev_free(handle)
            throw error
        }
        evdev = handle
        if grab { try self.grab() }
    }

    /// `capabilities`, or the first axis that makes the device unusable.
    ///
    /// Drivers pass absinfo through from firmware and HID descriptors
    /// unchecked, so a device can claim 50,000,000 touch slots or a minimum
    /// above its maximum just as a recording can.
    static func checked(_ capabilities: InputCapabilities, path: String) throws(InputError) -> InputCapabilities {
        for (code, axis) in capabilities.absoluteAxes.sorted(by: { $0.key < $1.key }) {
            if let problem = axis.problem(as: code) {
                throw .unusableAxis(path: path, name: capabilities.name, problem: problem)
            }
        }
        return capabilities
    }

    deinit { libevdev_free(evdev) }

    /// Takes exclusive access; other readers (a console, another app) stop seeing events.
    public func grab() throws(InputError) {
        let rc = libevdev_grab(evdev, LIBEVDEV_GRAB)
        if rc == -EBUSY { throw .grabbedElsewhere(path: path) }
        if rc < 0 { throw .system(path: path, operation: "EVIOCGRAB", errno: Errno(rawValue: -rc)) }
        isGrabbed = true
    }

    /// Reads every event that is ready, without blocking.
    ///
    /// - Returns: the events in kernel order; after a SYN_DROPPED, libevdev's resync delta.
    /// - Throws: ``InputError/unplugged(path:)`` once the device is gone.
    public func readAvailable() throws(InputError) -> [InputEvent] {
        var events: [InputEvent] = []
        var raw = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc: Int32
            do {
                rc = try Syscall.retryingNegativeErrno("libevdev_next_event") { libevdev_next_event(evdev, flags, &raw) }
            } catch where error.errno == .wouldBlock {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return events
            } catch where error.errno == .noDevice {
                throw .unplugged(path: path)
            } catch {
                throw .system(path: path, operation: "read", errno: error.errno)
            }
            if rc == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                events.append(InputEvent(raw))
            } else if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // First the SYN_DROPPED itself, then (in sync mode) the delta up to its SYN_REPORT.
                events.append(InputEvent(raw))
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            }
        }
    }

    /// The current value of an MT-B slot's axis as libevdev tracks it.
    /// 0 for a slot the device does not have, as libevdev answers.
    public func slotValue(slot: Int, code: EventCode) -> Int32 {
        guard let slot = UInt32(exactly: slot) else { return 0 }
        return libevdev_get_slot_value(evdev, slot, UInt32(code.rawValue))
    }

    static func capabilities(of dev: OpaquePointer) -> InputCapabilities {
        var codes: [EventType: Set<EventCode>] = [:]
        var axes: [EventCode: AbsoluteAxis] = [:]
        for typeValue in UInt16(0)...UInt16(EV_MAX) where libevdev_has_event_type(dev, UInt32(typeValue)) != 0 {
            let type = EventType(rawValue: typeValue)
            var set: Set<EventCode> = []
            for code in UInt16(0)...EventCode.maximum(for: type) where libevdev_has_event_code(dev, UInt32(typeValue), UInt32(code)) != 0 {
                set.insert(EventCode(code))
                if type == .absolute, let info = libevdev_get_abs_info(dev, UInt32(code)) {
                    axes[EventCode(code)] = AbsoluteAxis(
                        value: info.pointee.value, minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                        fuzz: info.pointee.fuzz, flat: info.pointee.flat, resolution: info.pointee.resolution)
                }
            }
            codes[type] = set
        }
        var properties: Set<InputProperty> = []
        for prop in UInt16(0)...UInt16(INPUT_PROP_MAX) where libevdev_has_property(dev, UInt32(prop)) != 0 {
            properties.insert(InputProperty(rawValue: prop))
        }
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        let id = InputDeviceID(
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        return InputCapabilities(name: name, id: id, properties: properties, codes: codes, absoluteAxes: axes)
    }
}

extension InputEvent {
    init(_ raw: input_event) {
        var copy = raw
        self.init(
            time: EventTime(seconds: cevdev_event_sec(&copy), microseconds: cevdev_event_usec(&copy)),
            type: EventType(rawValue: raw.type), code: EventCode(raw.code), value: raw.value)
    }

    var raw: input_event {
        cevdev_event_make(time.seconds, time.microseconds, type.rawValue, code.rawValue, value)
    }
}
