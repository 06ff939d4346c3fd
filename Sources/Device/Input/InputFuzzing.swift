import Graphics

/// Device's input parsers and decoders run over arbitrary bytes, for fuzzers.
///
/// Everything here is reachable from outside the program (a recording a
/// technician copies in, a device's firmware), so none of it may trap or
/// allocate without bound, whatever it is given.
public enum InputFuzzing {
    /// Feeds `bytes` to every parser and decoder that reads outside input,
    /// and throws the results away.
    ///
    /// Returns normally for every input; a trap, a hang or memory growing
    /// far beyond `bytes.count` is a bug. The bytes are read three ways:
    /// 1. As evemu-record text (``EvemuRecording/init(parsing:)``). When it
    ///    reads, its events go through ``TouchDecoder`` at every rotation and
    ///    through ``KeyboardDecoder`` as a keyboard and as a scanner, and the
    ///    recording is written (``EvemuRecording/text``) and read again.
    /// 2. As raw `struct input_event`s, as read(2) returns them from
    ///    /dev/input/eventN (``InputEvent/decodeKernelEvents(_:)``), decoded
    ///    as every kind of device: multitouch, single touch, absolute and
    ///    relative pointer, keyboard, scanner.
    /// 3. With their first 20 bytes as the axis ranges of a touchscreen
    ///    built in code, which no reader checked: the decoders must survive
    ///    ranges the reader and ``InputDevice`` would refuse.
    ///
    /// A libFuzzer target needs only:
    /// ```
    /// @_cdecl("LLVMFuzzerTestOneInput")
    /// func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    ///     InputFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
    ///     return 0
    /// }
    /// ```
    ///
    /// - Parameter bytes: anything at all.
    public static func exercise(_ bytes: [UInt8]) {
        if let recording = try? EvemuRecording(parsing: String(decoding: bytes, as: UTF8.self)) {
            decode(recording.events, as: recording.capabilities)
            _ = try? EvemuRecording(parsing: recording.text)
        }
        let kernelEvents = bytes.withUnsafeBytes { InputEvent.decodeKernelEvents($0) }
        for capabilities in devices {
            decode(kernelEvents, as: capabilities)
        }
        if let unchecked = touchscreen(axesFrom: bytes) {
            _ = try? InputDevice.checked(unchecked, path: "/dev/input/fuzz")
            decode(kernelEvents, as: unchecked)
        }
    }

    /// Every decoder this device would get, over `events`.
    private static func decode(_ events: [InputEvent], as capabilities: InputCapabilities) {
        for rotation in Rotation.allCases {
            let transform = DisplayTransform(rotation: rotation, physicalSize: Size(width: 1280, height: 800))
            // A calibration far from identity, so mapping's clamping is exercised too.
            let calibration = rotation == .degrees0 ? .identity : AffineMatrix(3, -2, 0.5, 1.5, 4, -1)
            guard var touch = TouchDecoder(capabilities: capabilities, transform: transform, calibration: calibration) else { break }
            for event in events { _ = touch.decode(event) }
            _ = touch.activeContacts
            _ = touch.cancelAll()
        }
        _ = capabilities.kind
        for isScanner in [false, true] {
            var keyboard = KeyboardDecoder(isScanner: isScanner)
            for event in events { _ = keyboard.decode(event) }
        }
    }

    /// One device of each kind the decoders handle, with kernel-like ranges
    /// (also the devices of the raw-event fuzz target, fuzz/decoders).
    public static let devices: [InputCapabilities] = {
        let axis = AbsoluteAxis(minimum: 0, maximum: 4095)
        return [
            InputCapabilities(
                name: "fuzz multitouch", properties: [.direct],
                absoluteAxes: [.absMTSlot: AbsoluteAxis(minimum: 0, maximum: 9), .absMTPositionX: axis, .absMTPositionY: axis,
                               .absMTTrackingID: AbsoluteAxis(minimum: 0, maximum: 65535)]),
            InputCapabilities(name: "fuzz single touch", codes: [.key: [.buttonTouch]], absoluteAxes: [.absX: axis, .absY: axis]),
            InputCapabilities(name: "fuzz tablet", codes: [.key: [.buttonLeft]], absoluteAxes: [.absX: axis, .absY: axis]),
            InputCapabilities(name: "fuzz mouse", codes: [.key: [.buttonLeft], .relative: [.relX, .relY]]),
        ]
    }()

    /// A multitouch screen whose slot, x and y ranges are the first 20 bytes
    /// (little-endian Int32: slot maximum, x minimum, x maximum, y minimum, y maximum).
    /// Shared with the raw-event fuzz target (fuzz/decoders).
    public static func touchscreen(axesFrom bytes: [UInt8]) -> InputCapabilities? {
        guard bytes.count >= 20 else { return nil }
        func int32(at offset: Int) -> Int32 {
            (0..<4).reduce(Int32(0)) { $0 | Int32(truncatingIfNeeded: UInt32(bytes[offset + $1]) << (8 * $1)) }
        }
        return InputCapabilities(
            name: "fuzz unchecked", properties: [.direct],
            absoluteAxes: [
                .absMTSlot: AbsoluteAxis(minimum: 0, maximum: int32(at: 0)),
                .absMTPositionX: AbsoluteAxis(minimum: int32(at: 4), maximum: int32(at: 8)),
                .absMTPositionY: AbsoluteAxis(minimum: int32(at: 12), maximum: int32(at: 16)),
                .absMTTrackingID: AbsoluteAxis(minimum: 0, maximum: 65535),
            ])
    }
}
