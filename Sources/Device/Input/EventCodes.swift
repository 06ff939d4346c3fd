/// An evdev event type (`EV_*` in linux/input-event-codes.h).
public struct EventType: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public static let synchronization = EventType(rawValue: 0x00)
    public static let key = EventType(rawValue: 0x01)
    public static let relative = EventType(rawValue: 0x02)
    public static let absolute = EventType(rawValue: 0x03)
    public static let miscellaneous = EventType(rawValue: 0x04)
    public static let `switch` = EventType(rawValue: 0x05)
    public static let led = EventType(rawValue: 0x11)
    public static let sound = EventType(rawValue: 0x12)
    public static let autoRepeat = EventType(rawValue: 0x14)
}

/// An evdev event code; its meaning depends on the ``EventType`` it comes with.
///
/// Named members use the kernel's values (linux/input-event-codes.h), so
/// recordings and uinput devices speak the same numbers as real hardware.
public struct EventCode: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    // EV_SYN
    public static let synReport = EventCode(0x00)
    public static let synConfig = EventCode(0x01)
    public static let synMTReport = EventCode(0x02)
    public static let synDropped = EventCode(0x03)

    // EV_REL
    public static let relX = EventCode(0x00)
    public static let relY = EventCode(0x01)
    public static let relWheel = EventCode(0x08)

    // EV_ABS
    public static let absX = EventCode(0x00)
    public static let absY = EventCode(0x01)
    public static let absPressure = EventCode(0x18)
    public static let absMTSlot = EventCode(0x2f)
    public static let absMTTouchMajor = EventCode(0x30)
    public static let absMTPositionX = EventCode(0x35)
    public static let absMTPositionY = EventCode(0x36)
    public static let absMTToolType = EventCode(0x37)
    public static let absMTTrackingID = EventCode(0x39)
    public static let absMTPressure = EventCode(0x3a)

    // EV_KEY: buttons
    public static let buttonLeft = EventCode(0x110)
    public static let buttonRight = EventCode(0x111)
    public static let buttonMiddle = EventCode(0x112)
    public static let buttonToolPen = EventCode(0x140)
    public static let buttonToolFinger = EventCode(0x145)
    public static let buttonTouch = EventCode(0x14a)
    public static let buttonToolDoubleTap = EventCode(0x14d)

    // EV_KEY: keys the KeyDecoder and classifier care about (US layout positions)
    public static let keyEscape = EventCode(1)
    public static let key1 = EventCode(2)
    public static let key0 = EventCode(11)
    public static let keyMinus = EventCode(12)
    public static let keyEqual = EventCode(13)
    public static let keyBackspace = EventCode(14)
    public static let keyTab = EventCode(15)
    public static let keyQ = EventCode(16)
    public static let keyP = EventCode(25)
    public static let keyLeftBrace = EventCode(26)
    public static let keyRightBrace = EventCode(27)
    public static let keyEnter = EventCode(28)
    public static let keyLeftCtrl = EventCode(29)
    public static let keyA = EventCode(30)
    public static let keyL = EventCode(38)
    public static let keySemicolon = EventCode(39)
    public static let keyApostrophe = EventCode(40)
    public static let keyGrave = EventCode(41)
    public static let keyLeftShift = EventCode(42)
    public static let keyBackslash = EventCode(43)
    public static let keyZ = EventCode(44)
    public static let keyM = EventCode(50)
    public static let keyComma = EventCode(51)
    public static let keyDot = EventCode(52)
    public static let keySlash = EventCode(53)
    public static let keyRightShift = EventCode(54)
    public static let keyKeypadAsterisk = EventCode(55)
    public static let keyLeftAlt = EventCode(56)
    public static let keySpace = EventCode(57)
    public static let keyCapsLock = EventCode(58)
    public static let keyKeypad7 = EventCode(71)
    public static let keyKeypadMinus = EventCode(74)
    public static let keyKeypadPlus = EventCode(78)
    public static let keyKeypad0 = EventCode(82)
    public static let keyKeypadDot = EventCode(83)
    public static let keyKeypadEnter = EventCode(96)
    public static let keyRightCtrl = EventCode(97)
    public static let keyKeypadSlash = EventCode(98)
    public static let keyRightAlt = EventCode(100)
    public static let keyUp = EventCode(103)
    public static let keyLeft = EventCode(105)
    public static let keyRight = EventCode(106)
    public static let keyDown = EventCode(108)
    public static let keyDelete = EventCode(111)

    /// Highest code per type that the kernel defines (`*_MAX`), for bitmask sizes
    /// and for refusing codes no kernel can produce.
    static func maximum(for type: EventType) -> UInt16 {
        switch type {
        case .synchronization: 0x0f
        case .key: 0x2ff
        case .relative: 0x0f
        case .absolute: 0x3f
        case .miscellaneous: 0x07
        case .switch: 0x10
        case .led: 0x0f
        case .sound: 0x07
        case .autoRepeat: 0x01
        default: 0x2ff
        }
    }

    /// The kernel's name for ``maximum(for:)`` and its value, for messages: "KEY_MAX (0x2ff)".
    static func maximumName(for type: EventType) -> String {
        let name = switch type {
        case .synchronization: "SYN_MAX"
        case .key: "KEY_MAX"
        case .relative: "REL_MAX"
        case .absolute: "ABS_MAX"
        case .miscellaneous: "MSC_MAX"
        case .switch: "SW_MAX"
        case .led: "LED_MAX"
        case .sound: "SND_MAX"
        case .autoRepeat: "REP_MAX"
        default: "the highest code of type 0x\(String(type.rawValue, radix: 16))"
        }
        return "\(name) (0x\(String(maximum(for: type), radix: 16)))"
    }
}

extension EventType {
    /// `EV_MAX`: no kernel has event types above it.
    static let maximum: UInt16 = 0x1f
}

/// A device property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The device moves a cursor (touchpads, tablets used as mice).
    public static let pointer = InputProperty(rawValue: 0x00)
    /// Touches land directly on the screen (touchscreens).
    public static let direct = InputProperty(rawValue: 0x01)
    public static let buttonPad = InputProperty(rawValue: 0x02)
    public static let semiMultitouch = InputProperty(rawValue: 0x03)

    /// `INPUT_PROP_MAX`: the kernel's property bitmask ends here.
    static let maximum: UInt16 = 0x1f
}
