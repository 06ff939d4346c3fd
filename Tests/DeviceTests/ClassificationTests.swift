import Testing
@testable import Device

@Suite("Classification from capability bits")
struct ClassificationTests {
    let mtAxes: [EventCode: AbsoluteAxis] = [
        .absMTSlot: AbsoluteAxis(minimum: 0, maximum: 9),
        .absMTPositionX: AbsoluteAxis(minimum: 0, maximum: 4095),
        .absMTPositionY: AbsoluteAxis(minimum: 0, maximum: 4095),
        .absMTTrackingID: AbsoluteAxis(minimum: 0, maximum: 65535),
    ]

    @Test func multitouchScreenIsDirectWithSlots() {
        let caps = InputCapabilities(name: "Goodix Capacitive TouchScreen", properties: [.direct], codes: [.key: [.buttonTouch]], absoluteAxes: mtAxes)
        #expect(caps.kind == .multitouchScreen)
    }

    @Test func touchpadIsNotATouchscreen() {
        var axes = mtAxes
        axes[.absX] = AbsoluteAxis(minimum: 0, maximum: 1000)
        axes[.absY] = AbsoluteAxis(minimum: 0, maximum: 1000)
        let caps = InputCapabilities(
            name: "SynPS/2 Synaptics TouchPad", properties: [.pointer, .buttonPad],
            codes: [.key: [.buttonLeft, .buttonTouch, .buttonToolFinger]], absoluteAxes: axes)
        #expect(caps.kind == .ignored)
    }

    @Test func recordedDevicesClassify() throws {
        #expect(try Fixture.recording("two-finger.evemu").capabilities.kind == .multitouchScreen)
        #expect(try Fixture.recording("single-touch.evemu").capabilities.kind == .singleTouchScreen)
        #expect(try Fixture.recording("qemu-usb-tablet.evemu").capabilities.kind == .absolutePointer)
        #expect(try Fixture.recording("keyboard.evemu").capabilities.kind == .keyboard)
        #expect(try Fixture.recording("scanner.evemu").capabilities.kind == .scanner)
        // Calls itself a keyboard: classified as one, caught later by its typing speed.
        #expect(try Fixture.recording("unbranded-scanner.evemu").capabilities.kind == .keyboard)
    }

    @Test func relativeMouse() {
        let caps = InputCapabilities(name: "Logitech USB Optical Mouse", codes: [.key: [.buttonLeft, .buttonRight], .relative: [.relX, .relY, .relWheel]])
        #expect(caps.kind == .relativeMouse)
    }

    @Test func penTabletIsAnAbsolutePointer() {
        let caps = InputCapabilities(
            name: "Wacom Intuos S Pen", codes: [.key: [.buttonToolPen, .buttonTouch]],
            absoluteAxes: [.absX: AbsoluteAxis(minimum: 0, maximum: 15200), .absY: AbsoluteAxis(minimum: 0, maximum: 9500)])
        #expect(caps.kind == .absolutePointer)
    }

    @Test func scannerByVendorAndByName() {
        var keys: Set<EventCode> = [.keyEnter]
        for code in EventCode.key1.rawValue...EventCode.key0.rawValue { keys.insert(EventCode(code)) }
        let zebra = InputCapabilities(name: "Symbol Bar Code Scanner::EA", id: InputDeviceID(bustype: 3, vendor: 0x05e0, product: 0x1200, version: 1), codes: [.key: keys])
        #expect(zebra.kind == .scanner)
        let named = InputCapabilities(name: "Generic Barcode Reader", id: InputDeviceID(bustype: 3, vendor: 0x1234, product: 1, version: 1), codes: [.key: keys])
        #expect(named.kind == .scanner)
        let numpad = InputCapabilities(name: "USB Numeric Keypad", id: InputDeviceID(bustype: 3, vendor: 0x1234, product: 1, version: 1), codes: [.key: keys])
        #expect(numpad.kind == .keyboard)
    }

    @Test func powerButtonIsIgnored() {
        let caps = InputCapabilities(name: "Power Button", codes: [.key: [EventCode(116)]])
        #expect(caps.kind == .ignored)
    }
}
