import Graphics
import Testing
@testable import Device

/// The in-process device the control socket uses feeds the same decoders as
/// a kernel device: a tap injected at a logical point decodes back to it,
/// at every rotation, and typed text arrives as keys.
@Suite struct InProcessInputTests {
    @Test(arguments: [Rotation.degrees0, .degrees90, .degrees180, .degrees270])
    func injectedTapDecodesToItsLogicalPoint(rotation: Rotation) throws {
        let transform = DisplayTransform(rotation: rotation, physicalSize: Size(width: 1280, height: 800))
        let monitor = InputMonitor(configuration: .init(directory: "/nonexistent-teller-test", transform: transform))
        var notices: [InputNotice] = []
        var device: InProcessInputDevice!
        device = InProcessInputDevice(capabilities: TouchInjector.capabilities()) { events in
            notices += monitor.decodeInProcess(events, from: device.path)
        }
        let added = monitor.addInProcess(device)
        guard case .added(_, _, .multitouchScreen) = added.first else { Issue.record("not classified as a touchscreen: \(added)"); return }
        let injector = TouchInjector(transform: transform, sink: device)
        let target = Point(x: transform.logicalSize.width / 3, y: transform.logicalSize.height / 4)
        try injector.tap(target)
        let touches = notices.compactMap { notice -> TouchEvent? in
            if case .touch(let event, _) = notice { return event }
            return nil
        }
        #expect(touches.map(\.phase) == [.began, .ended])
        for touch in touches {
            #expect(abs(touch.position.x - target.x) <= 1 && abs(touch.position.y - target.y) <= 1, "\(touch) for \(target) at \(rotation)")
        }
    }

    @Test func injectedTypingArrivesAsKeys() throws {
        let transform = DisplayTransform(rotation: .degrees0, physicalSize: Size(width: 800, height: 480))
        let monitor = InputMonitor(configuration: .init(directory: "/nonexistent-teller-test", transform: transform))
        var keys: [KeyboardInput] = []
        var device: InProcessInputDevice!
        device = InProcessInputDevice(capabilities: KeyboardInjector.capabilities()) { events in
            for notice in monitor.decodeInProcess(events, from: device.path) {
                if case .keyboard(let input, _, _) = notice { keys.append(input) }
            }
        }
        _ = monitor.addInProcess(device)
        try KeyboardInjector(sink: device).type("De1", pressEnter: true)
        #expect(keys.first == .key(.text("D")))
        #expect(keys.contains(.key(.text("1"))))
        #expect(keys.last == .key(.enter))
    }
}
