/// The range of one absolute axis (`struct input_absinfo`).
public struct AbsoluteAxis: Hashable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (or per radian for rotation axes); 0 when unknown.
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// The most multitouch slots (ABS_MT_SLOT maximum + 1) Teller accepts.
    ///
    /// Touch controllers track 2 to 20 fingers; the kernel's own ceiling is
    /// 1024 slots, there only to bound its allocation. Past 64 the numbers
    /// are a broken or hostile description, and trusting one (50,000,000
    /// slots) once grew the terminal to 1.6 GB. A panel that truly tracks
    /// more fingers needs this raised, not a workaround elsewhere.
    public static let maximumSlots = 64

    /// What makes this axis unusable as the range of `code`, in words for a
    /// technician; nil when it can be used.
    ///
    /// Shared by the evemu reader (which adds the line) and ``InputDevice``
    /// (which adds the device), so recordings and hardware obey one rule.
    public func problem(as code: EventCode) -> String? {
        let hexCode = "0x" + String(code.rawValue, radix: 16)
        guard code.rawValue <= EventCode.maximum(for: .absolute) else {
            return "axis code \(hexCode) is beyond \(EventCode.maximumName(for: .absolute))"
        }
        guard minimum <= maximum else { return "axis \(hexCode) has minimum \(minimum) above maximum \(maximum)" }
        if code == .absMTSlot {
            // The kernel numbers slots from 0 (input_mt_init_slots); a negative
            // slot can never be selected, so such a range describes no device.
            guard minimum >= 0 else { return "ABS_MT_SLOT minimum \(minimum) is negative; slots are numbered from 0" }
            guard Int(maximum) < Self.maximumSlots else {
                return "ABS_MT_SLOT maximum \(maximum) means \(Int(maximum) + 1) touch slots; at most \(Self.maximumSlots) are supported"
            }
        }
        return nil
    }
}

/// The identity of an input device (`struct input_id`).
public struct InputDeviceID: Hashable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    public static let usb: UInt16 = 0x03
    public static let virtual: UInt16 = 0x06
}

/// What an input device says it can do: its name, id, properties, event
/// codes and absolute ranges.
///
/// This is everything classification needs, so a device can be classified
/// from an evemu description or a literal in a test, with no device node.
public struct InputCapabilities: Hashable, Sendable {
    public var name: String
    public var id: InputDeviceID
    public var properties: Set<InputProperty>
    /// Supported codes per event type; a type with no codes (e.g. EV_SYN) may map to an empty set.
    public var codes: [EventType: Set<EventCode>]
    public var absoluteAxes: [EventCode: AbsoluteAxis]

    public init(
        name: String, id: InputDeviceID = InputDeviceID(bustype: 0, vendor: 0, product: 0, version: 0),
        properties: Set<InputProperty> = [], codes: [EventType: Set<EventCode>] = [:],
        absoluteAxes: [EventCode: AbsoluteAxis] = [:]
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absoluteAxes = absoluteAxes
        for code in absoluteAxes.keys { self.codes[.absolute, default: []].insert(code) }
    }

    public var types: Set<EventType> { Set(codes.keys) }

    public func has(_ type: EventType) -> Bool { codes[type] != nil }

    public func has(_ type: EventType, _ code: EventCode) -> Bool { codes[type]?.contains(code) ?? false }

    public func has(_ property: InputProperty) -> Bool { properties.contains(property) }
}
