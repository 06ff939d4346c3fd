import Glibc
import Graphics

/// A synthetic multitouch (protocol B) touchscreen for QA, with realistic
/// ranges (0...4095 on both axes, 10 slots, INPUT_PROP_DIRECT).
///
/// Helpers take logical screen points and the display's transform, and
/// send the raw values a real panel would report there, so what comes back
/// through ``TouchDecoder`` tests rotation and scaling for real.
/// Not thread-safe.
public final class TouchInjector {
    public static let axis = AbsoluteAxis(minimum: 0, maximum: 4095, resolution: 16)
    public static let slots: Int32 = 10

    /// The capabilities the injector's device is created with.
    public static func capabilities(name: String = "Teller QA touchscreen") -> InputCapabilities {
        var axes: [EventCode: AbsoluteAxis] = [
            .absX: axis, .absY: axis,
            .absMTPositionX: axis, .absMTPositionY: axis,
            .absMTSlot: AbsoluteAxis(minimum: 0, maximum: slots - 1),
            .absMTTrackingID: AbsoluteAxis(minimum: 0, maximum: 65535),
        ]
        axes[.absMTPressure] = AbsoluteAxis(minimum: 0, maximum: 255)
        return InputCapabilities(
            name: name, id: InputDeviceID(bustype: InputDeviceID.virtual, vendor: 0x7e11, product: 0x0001, version: 1),
            properties: [.direct],
            codes: [.synchronization: [], .key: [.buttonTouch, .buttonToolFinger], .absolute: Set(axes.keys)],
            absoluteAxes: axes)
    }

    /// Where the events go: a uinput device, or an in-process device.
    public let device: any InputEventSink
    public var transform: DisplayTransform
    private var nextTrackingID: Int32 = 1
    /// Microseconds to sleep between swipe steps.
    public var stepDelayMicroseconds: UInt32 = 8_000

    /// A uinput touchscreen: events go through the kernel's input stack.
    public convenience init(transform: DisplayTransform, name: String = "Teller QA touchscreen") throws(InputError) {
        self.init(transform: transform, sink: try UInputDevice(capabilities: Self.capabilities(name: name)))
    }

    /// Writes to `sink`, which must have been made with ``capabilities(name:)``.
    public init(transform: DisplayTransform, sink: any InputEventSink) {
        self.transform = transform
        device = sink
    }

    /// The kernel device, when this injector writes through uinput.
    public var uinput: UInputDevice? { device as? UInputDevice }

    /// Raw panel values for a logical point under the current transform.
    public func raw(forLogical p: Point) -> (x: Int32, y: Int32) {
        TouchMapping.raw(forPhysical: transform.physical(fromLogical: p), physicalSize: transform.physicalSize, xAxis: Self.axis, yAxis: Self.axis)
    }

    /// Puts a finger down in `slot` at logical `p`; returns its tracking id.
    @discardableResult
    public func down(_ p: Point, slot: Int32 = 0) throws(InputError) -> Int32 {
        try down(raw: raw(forLogical: p), slot: slot)
    }

    /// Puts a finger down on panel pixel `p` (physical frame, ignoring rotation).
    @discardableResult
    public func down(physical p: Point, slot: Int32 = 0) throws(InputError) -> Int32 {
        try down(raw: TouchMapping.raw(forPhysical: p, physicalSize: transform.physicalSize, xAxis: Self.axis, yAxis: Self.axis), slot: slot)
    }

    private func down(raw: (x: Int32, y: Int32), slot: Int32) throws(InputError) -> Int32 {
        let id = nextTrackingID
        nextTrackingID += 1
        let (x, y) = raw
        try device.emit(.absolute, .absMTSlot, slot)
        try device.emit(.absolute, .absMTTrackingID, id)
        try device.emit(.absolute, .absMTPositionX, x)
        try device.emit(.absolute, .absMTPositionY, y)
        try device.emit(.key, .buttonTouch, 1)
        try device.emit(.key, .buttonToolFinger, 1)
        try device.emit(.absolute, .absX, x)
        try device.emit(.absolute, .absY, y)
        try device.report()
        return id
    }

    public func move(_ p: Point, slot: Int32 = 0) throws(InputError) {
        let (x, y) = raw(forLogical: p)
        try device.emit(.absolute, .absMTSlot, slot)
        try device.emit(.absolute, .absMTPositionX, x)
        try device.emit(.absolute, .absMTPositionY, y)
        try device.emit(.absolute, .absX, x)
        try device.emit(.absolute, .absY, y)
        try device.report()
    }

    public func up(slot: Int32 = 0) throws(InputError) {
        try device.emit(.absolute, .absMTSlot, slot)
        try device.emit(.absolute, .absMTTrackingID, -1)
        try device.emit(.key, .buttonTouch, 0)
        try device.emit(.key, .buttonToolFinger, 0)
        try device.report()
    }

    /// A finger down and up at logical `p`.
    public func tap(_ p: Point) throws(InputError) {
        try down(p)
        try up()
    }

    /// A finger dragged from `start` to `end` in `steps` moves.
    public func swipe(from start: Point, to end: Point, steps: Int = 10) throws(InputError) {
        try down(start)
        for i in 1...max(1, steps) {
            let p = Point(x: start.x + (end.x - start.x) * i / steps, y: start.y + (end.y - start.y) * i / steps)
            usleep(stepDelayMicroseconds)
            try move(p)
        }
        try up()
    }
}

/// A synthetic USB keyboard (or scanner) for QA, typing US-layout text.
public final class KeyboardInjector {
    public let device: any InputEventSink

    /// The capabilities of the injector's keyboard: every key of a US layout.
    /// - Parameter name: use a name with "Barcode Scanner" in it to get a device classified `.scanner`.
    public static func capabilities(name: String = "Teller QA keyboard") -> InputCapabilities {
        var keys: Set<EventCode> = []
        for code in UInt16(1)...UInt16(111) { keys.insert(EventCode(code)) }
        return InputCapabilities(
            name: name, id: InputDeviceID(bustype: InputDeviceID.virtual, vendor: 0x7e11, product: 0x0002, version: 1),
            codes: [.synchronization: [], .key: keys, .autoRepeat: []])
    }

    /// A uinput keyboard: keys go through the kernel's input stack.
    public convenience init(name: String = "Teller QA keyboard") throws(InputError) {
        self.init(sink: try UInputDevice(capabilities: Self.capabilities(name: name)))
    }

    /// Writes to `sink`, which must have been made with ``capabilities(name:)``.
    public init(sink: any InputEventSink) {
        device = sink
    }

    /// The kernel device, when this injector writes through uinput.
    public var uinput: UInputDevice? { device as? UInputDevice }

    /// Pause between characters; 0 types as fast as a scanner, ~50 ms like a person.
    public var keyDelayMicroseconds: UInt32 = 0

    /// Presses and releases the key for every character, then Enter when asked.
    public func type(_ text: String, pressEnter: Bool = false) throws(InputError) {
        for character in text {
            if keyDelayMicroseconds > 0 { usleep(keyDelayMicroseconds) }
            guard let (code, shifted) = Self.key(for: character) else { continue }
            if shifted { try device.emit(.key, .keyLeftShift, 1) }
            try device.emit(.key, code, 1)
            try device.report()
            try device.emit(.key, code, 0)
            if shifted { try device.emit(.key, .keyLeftShift, 0) }
            try device.report()
        }
        if pressEnter { try press(.keyEnter) }
    }

    public func press(_ code: EventCode) throws(InputError) {
        try device.emit(.key, code, 1)
        try device.report()
        try device.emit(.key, code, 0)
        try device.report()
    }

    /// The key and shift state that types `character` on a US layout.
    static func key(for character: Character) -> (EventCode, Bool)? {
        for (code, pair) in KeyDecoder.characters where !(71...83).contains(code) && code != 55 && code != 98 {
            if pair.0 == character { return (EventCode(code), false) }
            if pair.1 == character { return (EventCode(code), true) }
        }
        return nil
    }
}
