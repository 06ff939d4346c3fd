/// What Teller does with an input device, decided from its capabilities.
public enum InputDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// Multitouch protocol B (slots and tracking ids) on the screen.
    case multitouchScreen
    /// One contact: BTN_TOUCH with ABS_X/ABS_Y (resistive panels, old controllers).
    case singleTouchScreen
    /// Absolute position with mouse buttons: qemu's usb-tablet, graphics tablets, KVM switches.
    case absolutePointer
    /// Relative motion with buttons: a mouse, which gets a drawn cursor.
    case relativeMouse
    /// A keyboard that types text.
    case keyboard
    /// A barcode or card scanner: a HID keyboard that types a code and then presses Enter.
    case scanner
    /// Touchpads, power buttons, lid switches and anything else Teller ignores.
    case ignored
}

extension InputCapabilities {
    /// Classifies the device from its capability bits alone.
    ///
    /// The first matching rule wins:
    /// 1. ABS_MT_SLOT and ABS_MT_POSITION_X/Y, not flagged INPUT_PROP_POINTER
    ///    (a touchpad): multitouch screen.
    /// 2. ABS_X/ABS_Y with BTN_TOUCH, no BTN_TOOL_FINGER and no pointer
    ///    property: single-touch screen.
    /// 3. ABS_X/ABS_Y with BTN_LEFT (or a pen tool): absolute pointer.
    /// 4. REL_X/REL_Y with BTN_LEFT: relative mouse.
    /// 5. Letter or digit keys and Enter: a scanner when the name or USB
    ///    vendor says so (see ``isKnownScanner``), otherwise a keyboard. A
    ///    scanner that announces itself as a plain keyboard is still caught
    ///    at run time by ``ScanDetector`` from its typing speed.
    public var kind: InputDeviceKind {
        let hasMTPosition = has(.absolute, .absMTPositionX) && has(.absolute, .absMTPositionY)
        let hasPosition = has(.absolute, .absX) && has(.absolute, .absY)
        let isTouchpad = has(.pointer) || has(.buttonPad)
        if hasMTPosition && has(.absolute, .absMTSlot) && !isTouchpad {
            return .multitouchScreen
        }
        if hasPosition && has(.key, .buttonTouch) && !has(.key, .buttonToolFinger) && !isTouchpad
            && !has(.key, .buttonToolPen)
        {
            return .singleTouchScreen
        }
        if hasPosition && (has(.key, .buttonLeft) || has(.key, .buttonToolPen)) && !isTouchpad {
            return .absolutePointer
        }
        if has(.relative, .relX) && has(.relative, .relY) && has(.key, .buttonLeft) {
            return .relativeMouse
        }
        if typesText {
            return isKnownScanner ? .scanner : .keyboard
        }
        return .ignored
    }

    /// True when the device has Enter and either the letter row or the digit row.
    var typesText: Bool {
        guard has(.key, .keyEnter) || has(.key, .keyKeypadEnter) else { return false }
        let letters = (EventCode.keyQ.rawValue...EventCode.keyP.rawValue).allSatisfy { has(.key, EventCode($0)) }
        let digits = (EventCode.key1.rawValue...EventCode.key0.rawValue).allSatisfy { has(.key, EventCode($0)) }
        return letters || digits
    }

    /// USB vendors that make only scanners (so their keyboards are scanners).
    static let scannerVendors: Set<UInt16> = [
        0x0c2e,  // Honeywell / Metrologic
        0x05e0,  // Symbol / Zebra
        0x05f9,  // Datalogic
        0x1eab,  // Newland
        0x0801,  // MagTek card readers
        0x0acd,  // ID TECH card readers
        0x2dd6,  // Netum
    ]

    /// Words in a device name that mean "this keyboard is a scanner".
    static let scannerNameWords = ["scanner", "barcode", "bar code", "card reader", "msr", "magstripe", "honeywell", "zebra", "symbol", "datalogic", "newland"]

    /// A name or vendor heuristic: scanners enumerate as ordinary HID keyboards.
    public var isKnownScanner: Bool {
        if id.bustype == InputDeviceID.usb && Self.scannerVendors.contains(id.vendor) { return true }
        let lower = name.lowercased()
        return Self.scannerNameWords.contains { lower.contains($0) }
    }
}
