import Dispatch
import Glibc
import Graphics
import Testing
@testable import Device

/// Input that asks for a frame gets it in the same turn of the main queue:
/// the frame is drawn right after the events of one read are handled, not
/// behind work the handlers queued meanwhile (a view model's task after a
/// tap), and once for all the events of that read.
@MainActor
@Suite struct InputFrameTurnTests {
    private static var alive: [AnyObject] = []

    @Test func theFrameInputAsksForIsDrawnBeforeWorkItQueued() async throws {
        var template = Array("/tmp/teller-turn-input-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { rmdir(directory) }
        let display = OffscreenDisplay(physicalSize: Size(width: 320, height: 200), bufferCount: 2)
        let monitor = InputMonitor(configuration: .init(directory: directory, transform: display.transform))
        let loop = EventLoop()
        loop.attach(display: display) { surface, _ in surface.bounds }
        // What queued work saw when it ran: how many frames were drawn by then.
        var framesSeenByQueuedWork: [Int] = []
        try loop.attach(input: monitor) { notice in
            // Only touches queue work; hotplug notices pass by.
            if case .touch = notice {
                DispatchQueue.main.async { MainActor.assumeIsolated { framesSeenByQueuedWork.append(loop.framesRendered) } }
                loop.setNeedsDisplay()
            }
        }
        let device = try loop.attachPipeDevice(capabilities: TouchInjector.capabilities(name: "test touchscreen"), to: monitor)
        // The loop's sources hold unowned references; they live to the end of the process, as the terminal's do.
        Self.alive += [loop, monitor, device]
        // A press and its release, both in the pipe before the loop reads it: one read.
        try TouchInjector(transform: display.transform, sink: device).tap(Point(x: 100, y: 100))
        for _ in 0..<2000 where framesSeenByQueuedWork.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(framesSeenByQueuedWork == [1, 1], "the work queued by the two touches ran before their frame was drawn")
        #expect(loop.framesRendered == 1, "one read, one frame")
    }
}
