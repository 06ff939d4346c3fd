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
