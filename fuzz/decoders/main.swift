import Device
import Graphics

/// libFuzzer's entry for the touch and key decoders alone, without the
/// evemu reader in front: the first byte picks the device, the display
/// rotation and keyboard or scanner; the rest is `struct input_event`s as
/// read(2) returns them from /dev/input/eventN.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = Int(data[0])
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let events = InputEvent.decodeKernelEvents(stream)
    let device = selector % 5 == 4 ? InputFuzzing.touchscreen(axesFrom: Array(stream.prefix(20))) : InputFuzzing.devices[selector % 5]
    let rotation = Rotation.allCases[(selector / 5) % Rotation.allCases.count]
    let transform = DisplayTransform(rotation: rotation, physicalSize: Size(width: 1280, height: 800))
    // A calibration far from identity, so the mapping's clamping is exercised too.
    let calibration = selector & 0x80 == 0 ? AffineMatrix.identity : AffineMatrix(3, -2, 0.5, 1.5, 4, -1)
    if let device, var touch = TouchDecoder(capabilities: device, transform: transform, calibration: calibration) {
        for event in events { _ = touch.decode(event) }
        _ = touch.activeContacts
        _ = touch.cancelAll()
    }
    var keyboard = KeyboardDecoder(isScanner: selector & 0x40 != 0)
    var keys = KeyDecoder()
    for event in events {
        _ = keyboard.decode(event)
        _ = keys.decode(event)
    }
    return 0
}

