import SystemCalls
import Graphics

/// Somewhere Teller's frames appear: a DRM/KMS output, an fbdev
/// framebuffer, or memory.
///
/// Drawing happens in the logical (rotated) frame into ``backBuffer``; the
/// display rotates and converts for the panel in software. One frame:
/// 1. wait until ``isReadyForFrame`` (a page flip may still be pending);
/// 2. redraw your damage plus ``staleRegion`` into ``backBuffer``;
/// 3. ``present(damage:)`` with your damage.
///
/// Displays own kernel resources and are not thread-safe: use them from the
/// main loop only.
public protocol Display: AnyObject {
    /// A short name for logs, e.g. "drm /dev/dri/card0 HDMI-A-1 1280x800@60".
    var name: String { get }
    /// The logical size the application draws at (after rotation).
    var size: Size { get }
    /// Rotation and panel size; give the same value to ``TouchMapping``.
    var transform: DisplayTransform { get }
    /// The surface the next frame is drawn into, in logical coordinates.
    var backBuffer: Surface { get }
    /// Logical pixels of ``backBuffer`` that are older than the last
    /// presented frame (buffer age); redraw them with your own damage.
    var staleRegion: Rect { get }
    /// False while a page flip is pending; the back buffer must not be touched then.
    var isReadyForFrame: Bool { get }
    /// Readable when a pending flip has completed; nil when flips complete at once.
    var readableDescriptor: Int32? { get }
    /// When the last frame reached the panel, on CLOCK_MONOTONIC: the page
    /// flip's completion as the kernel stamps it, or the clock when
    /// ``present(damage:)`` returned for displays without flips. nil before
    /// the first frame.
    var lastPresentedAt: MonotonicInstant? { get }
    /// Shows the back buffer; `damage` is what changed since the last frame, in logical pixels.
    func present(damage: Rect) throws(DisplayError)
    /// Processes the completion events on ``readableDescriptor``; never blocks.
    func handleReadable() throws(DisplayError)
}

extension Display {
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// Presents the whole screen.
    public func presentAll() throws(DisplayError) { try present(damage: bounds) }

    /// Blocks until the pending flip completes (tools and tests only; the event loop never waits).
    public func waitForFrameReady(timeoutMilliseconds: Int32 = 1000) throws(DisplayError) {
        while !isReadyForFrame {
            guard let fd = readableDescriptor else { return }
            let ready: Bool
            do { ready = try FileDescriptor.withBorrowed(fd) { (display) throws(SystemCallError) in try display.waitReadable(milliseconds: timeoutMilliseconds) } }
            catch { throw DisplayError(kind: .system("poll"), path: name, errno: error.errno) }
            guard ready else { throw DisplayError(kind: .flipTimedOut, path: name, errno: nil) }
            try handleReadable()
        }
    }
}
