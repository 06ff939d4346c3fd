import Device
import Glibc
import Graphics
import TellerCore

/// Input latency inside the process at 1280x800: raw kernel events are read
/// from a pipe (standing in for /dev/input/eventN), decoded by TouchDecoder,
/// hit-tested against a keypad-sized grid of 48 buttons, and the pressed
/// button is redrawn and presented on an offscreen display. One sample is
/// one tap frame, from the read to the frame being ready.
let inputBenchmark = Benchmark(name: "input", summary: "event read -> decode -> hit test -> frame ready at 1280x800") { args in
    let iterations = args.first.flatMap { Int($0) } ?? 5000
    let panel = Size(width: 1280, height: 800)
    let display = OffscreenDisplay(physicalSize: panel)
    var decoder = TouchDecoder(capabilities: TouchInjector.capabilities(), transform: display.transform)!
    let buttons: [Rect] = (0..<48).map { i in Rect(x: 40 + (i % 8) * 150, y: 40 + (i / 8) * 120, width: 140, height: 110) }
    var colors = [UInt32](repeating: 0xFF30_3040, count: buttons.count)
    let surface = display.backBuffer
    for y in 0..<surface.height { (surface.row(y)).update(repeating: 0xFF10_1018, count: surface.width) }
    try display.presentAll()

    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw BenchmarkError.failed("pipe: \(String(cString: strerror(errno)))") }
    defer { close(fds[0]); close(fds[1]) }
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * InputEvent.kernelSize, alignment: 16)
    defer { readBuffer.deallocate() }

    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    var trackingID: Int32 = 1
    for i in 0..<iterations {
        let target = buttons[i % buttons.count].center
        let raw = TouchMapping.raw(forPhysical: target, physicalSize: panel, xAxis: TouchInjector.axis, yAxis: TouchInjector.axis)
        let frame: [InputEvent] = [
            InputEvent(type: .absolute, code: .absMTSlot, value: 0),
            InputEvent(type: .absolute, code: .absMTTrackingID, value: i % 2 == 0 ? trackingID : -1),
            InputEvent(type: .absolute, code: .absMTPositionX, value: raw.x),
            InputEvent(type: .absolute, code: .absMTPositionY, value: raw.y),
            .report(),
        ]
        if i % 2 == 1 { trackingID += 1 }
        let bytes = frame.flatMap(\.kernelBytes)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }

        let start = ContinuousClock.now
        let count = read(fds[0], readBuffer.baseAddress, readBuffer.count)
        let events = InputEvent.decodeKernelEvents(UnsafeRawBufferPointer(rebasing: readBuffer[0..<max(0, count)]))
        var damage = Rect.zero
        for event in events {
            for touch in decoder.decode(event) {
                guard let hit = buttons.firstIndex(where: { $0.contains(touch.position) }) else { continue }
                colors[hit] = touch.phase == .began ? 0xFF20_80F0 : 0xFF30_3040
                let rect = buttons[hit]
                for y in rect.minY..<rect.maxY { (surface.row(y) + rect.minX).update(repeating: colors[hit], count: rect.width) }
                damage = damage.union(rect)
            }
        }
        try display.present(damage: damage)
        samples.append((ContinuousClock.now - start).milliseconds)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
    print("input_to_frame_median_ms: \(median.fixed(decimals: 4))")
    print("input_to_frame_p99_ms: \(p99.fixed(decimals: 4))")
    print("input_to_frame_samples: \(samples.count)")
}
