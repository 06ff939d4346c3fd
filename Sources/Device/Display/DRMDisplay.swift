import SystemCalls
import CDRM
import Glibc
import Graphics

/// A DRM/KMS output drawn through two XRGB8888 dumb buffers with page flips.
///
/// Opening does the modeset; ``present(damage:)`` queues a page flip with
/// DRM_MODE_PAGE_FLIP_EVENT and returns at once. The flip's completion
/// arrives on ``readableDescriptor`` and is handled by ``handleReadable()``
/// (drmHandleEvent); until then ``isReadyForFrame`` is false, so a loop that
/// renders only when ready renders at most once per vblank and never waits.
///
/// The CRTC configuration found at open (usually the console) is restored by
/// ``restore()`` and in `deinit`. Not thread-safe.
public final class DRMDisplay: Display {
    public struct Configuration: Sendable {
        /// e.g. "/dev/dri/card1"; nil tries every /dev/dri/card* and takes the first with a connected output.
        public var cardPath: String?
        /// e.g. "HDMI-A-1"; nil takes the first connected connector.
        public var connectorName: String?
        /// nil takes the connector's preferred mode.
        public var mode: ModeRequest?
        public var rotation: Rotation

        public init(cardPath: String? = nil, connectorName: String? = nil, mode: ModeRequest? = nil, rotation: Rotation = .degrees0) {
            self.cardPath = cardPath
            self.connectorName = connectorName
            self.mode = mode
            self.rotation = rotation
        }
    }

    public let name: String
    public let transform: DisplayTransform
    public let connector: ConnectorID
    public let crtc: CRTCID
    public let connectorName: String
    public let modeDescription: String
    private let card: DeviceFile
    private var buffers: [DumbBuffer]
    private let chain: SwapChain
    private var savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    /// What the CRTC showed before Teller (the console's framebuffer), put back by ``restore()``.
    public private(set) var previousFramebuffer: FramebufferID = .none
    private var flipPending = false
    private var shown: Int
    public private(set) var completedFlips = 0
    public private(set) var lastPresentedAt: MonotonicInstant?

    /// Opens the configured card, or the first card with a connected output, and does the modeset.
    ///
    /// - Throws: ``DisplayError`` naming the card: no device, permission
    ///   denied (the `video` group), no connected connector, mode not
    ///   offered, cannot become DRM master.
    public convenience init(configuration: Configuration = Configuration()) throws(DisplayError) {
        if let path = configuration.cardPath {
            try self.init(path: path, configuration: configuration)
            return
        }
        let cards = ((try? Syscall.listDirectory("/dev/dri")) ?? []).filter { $0.hasPrefix("card") }.sorted()
        guard !cards.isEmpty else { throw DisplayError(kind: .noDevice, path: "/dev/dri/card*", errno: nil) }
        var firstError: DisplayError?
        for card in cards {
            do {
                try self.init(path: "/dev/dri/" + card, configuration: configuration)
                return
            } catch {
                // Cards without outputs (render-only GPUs) are expected; report the most useful failure.
                if firstError == nil || firstError?.kind == .noConnectedConnector { firstError = error }
            }
        }
        throw firstError!
    }

    private init(path: String, configuration: Configuration) throws(DisplayError) {
        do { card = try DeviceFile(path: path, flags: O_RDWR | O_NONBLOCK) }
        catch { throw DisplayError.opening(path, error.errno) }

        if drmIsMaster(card.fd) == 0 && drmSetMaster(card.fd) != 0 {
            throw DisplayError(kind: .cannotBecomeMaster, path: path, errno: Errno(rawValue: errno))
        }
        guard let resources = drmModeGetResources(card.fd) else {
            let e = Errno(rawValue: errno)
            throw DisplayError(kind: e == .notATerminalOrDevice || e == .invalidArgument ? .noDevice : .system("drmModeGetResources"), path: path, errno: e)
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        let crtcIDs = (0..<Int(res.count_crtcs)).map { res.crtcs[$0] }
        let connectorIDs = (0..<Int(res.count_connectors)).map { res.connectors[$0] }

        // Connector and mode.
        var chosen: (id: UInt32, name: String, mode: ConnectorMode, encoder: UInt32, encoders: [UInt32])?
        var offered: [String] = []
        for id in connectorIDs {
            guard let conn = drmModeGetConnector(card.fd, id) else { continue }
            defer { drmModeFreeConnector(conn) }
            let c = conn.pointee
            let name = DRMDisplay.connectorName(type: c.connector_type, index: c.connector_type_id)
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            if let wanted = configuration.connectorName, wanted != name { continue }
            let modes = (0..<Int(c.count_modes)).map { ConnectorMode(info: c.modes[$0]) }
            offered = modes.map(\.description)
            guard let mode = ConnectorMode.choose(from: modes, request: configuration.mode) else { continue }
            chosen = (id, name, mode, c.encoder_id, (0..<Int(c.count_encoders)).map { c.encoders[$0] })
            break
        }
        guard let chosen else {
            if let request = configuration.mode, !offered.isEmpty {
                throw DisplayError(kind: .modeNotAvailable(requested: request.description, available: offered), path: path, errno: nil)
            }
            throw DisplayError(kind: .noConnectedConnector, path: path, errno: nil)
        }

        // CRTC: the one already driving the connector, else any its encoders can use.
        var crtcID: UInt32?
        if chosen.encoder != 0, let enc = drmModeGetEncoder(card.fd, chosen.encoder) {
            if enc.pointee.crtc_id != 0 { crtcID = enc.pointee.crtc_id }
            drmModeFreeEncoder(enc)
        }
        if crtcID == nil {
            outer: for encoderID in chosen.encoders {
                guard let enc = drmModeGetEncoder(card.fd, encoderID) else { continue }
                defer { drmModeFreeEncoder(enc) }
                for (index, id) in crtcIDs.enumerated() where enc.pointee.possible_crtcs & (1 << UInt32(index)) != 0 {
                    crtcID = id
                    break outer
                }
            }
        }
        guard let crtcID else { throw DisplayError(kind: .noCRTC, path: path, errno: nil) }

        connector = ConnectorID(rawValue: chosen.id)
        crtc = CRTCID(rawValue: crtcID)
        connectorName = chosen.name
        modeDescription = chosen.mode.description
        let physical = Size(width: chosen.mode.width, height: chosen.mode.height)
        transform = DisplayTransform(rotation: configuration.rotation, physicalSize: physical)
        name = "drm \(path) \(chosen.name) \(chosen.mode.description) rotation \(configuration.rotation.rawValue)"

        buffers = [try DumbBuffer(card: card, size: physical), try DumbBuffer(card: card, size: physical)]
        chain = SwapChain(transform: transform, buffers: buffers.map(\.scanout), owner: nil, firstBack: 1)
        shown = 0

        savedCRTC = drmModeGetCrtc(card.fd, crtcID)
        previousFramebuffer = FramebufferID(rawValue: savedCRTC?.pointee.buffer_id ?? 0)
        var connectorID = chosen.id
        var modeInfo = chosen.mode.info
        if drmModeSetCrtc(card.fd, crtcID, buffers[0].framebuffer.rawValue, 0, 0, &connectorID, 1, &modeInfo) != 0 {
            let e = Errno(rawValue: errno)
            if let savedCRTC { drmModeFreeCrtc(savedCRTC) }
            savedCRTC = nil
            if e == .permissionDenied || e == .notPermitted {
                throw DisplayError(kind: .cannotBecomeMaster, path: path, errno: e)
            }
            throw DisplayError(kind: .system("drmModeSetCrtc \(chosen.mode.description) on \(chosen.name)"), path: path, errno: e)
        }
    }

    deinit {
        restore()
        buffers.removeAll()
    }

    public var size: Size { transform.logicalSize }
    public var backBuffer: Surface { chain.backBuffer }
    public var staleRegion: Rect { chain.staleRegion }
    public var isReadyForFrame: Bool { !flipPending }
    public var readableDescriptor: Int32? { card.fd }
    public var devicePath: String { card.path }

    /// Which dumb buffer the CRTC shows (0 or 1) and its pixels, physical frame: for checks and screenshots.
    public var frontPixels: Surface {
        buffers[shown].scanout.surface(owner: buffers[shown])
    }

    public func present(damage: Rect) throws(DisplayError) {
        precondition(!flipPending, "present called while a page flip is pending; wait for isReadyForFrame")
        let index = chain.prepare(damage: damage)
        let fb = buffers[index].framebuffer.rawValue
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let rc = drmModePageFlip(card.fd, crtc.rawValue, fb, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
        if rc == 0 {
            flipPending = true
            return
        }
        let e = Errno(rawValue: -rc == 0 ? errno : -rc)
        if e == .permissionDenied || e == .notPermitted {
            throw DisplayError(kind: .cannotBecomeMaster, path: card.path, errno: e)
        }
        // Drivers without page flip: set the CRTC directly (completes immediately, may tear).
        var connectorID = connector.rawValue
        guard let current = drmModeGetCrtc(card.fd, crtc.rawValue) else {
            throw DisplayError(kind: .system("drmModePageFlip"), path: card.path, errno: e)
        }
        defer { drmModeFreeCrtc(current) }
        var mode = current.pointee.mode
        guard drmModeSetCrtc(card.fd, crtc.rawValue, fb, 0, 0, &connectorID, 1, &mode) == 0 else {
            throw DisplayError(kind: .system("drmModePageFlip"), path: card.path, errno: e)
        }
        // No flip event to carry the kernel's time: the frame is up once the call returned.
        flipCompleted(at: .now())
    }

    public func handleReadable() throws(DisplayError) {
        var context = drmEventContext()
        context.version = 2
        // The event's time is the vblank the flip completed at, on CLOCK_MONOTONIC
        // (DRM's default; drm.timestamp_monotonic=0 would make it the wall clock).
        context.page_flip_handler = { _, _, seconds, microseconds, userData in
            guard let userData else { return }
            Unmanaged<DRMDisplay>.fromOpaque(userData).takeUnretainedValue()
                .flipCompleted(at: MonotonicInstant(seconds: Int64(seconds), microseconds: Int64(microseconds)))
        }
        if drmHandleEvent(card.fd, &context) != 0 {
            let e = Errno(rawValue: errno)
            if e == .wouldBlock || e == .interrupted { return }
            throw DisplayError(kind: .system("drmHandleEvent"), path: card.path, errno: e)
        }
    }

    private func flipCompleted(at time: MonotonicInstant) {
        flipPending = false
        lastPresentedAt = time
        shown = chain.back
        chain.advance()
        completedFlips += 1
    }

    /// The framebuffer the CRTC scans out right now, as the kernel reports it.
    public var scanoutFramebuffer: FramebufferID {
        guard let crtcState = drmModeGetCrtc(card.fd, crtc.rawValue) else { return .none }
        defer { drmModeFreeCrtc(crtcState) }
        return FramebufferID(rawValue: crtcState.pointee.buffer_id)
    }

    /// Puts back the CRTC configuration found at open (the console, usually). Idempotent.
    public func restore() {
        guard let saved = savedCRTC else { return }
        savedCRTC = nil
        defer { drmModeFreeCrtc(saved) }
        var connectorID = connector.rawValue
        var crtcState = saved.pointee
        if crtcState.mode_valid != 0 && crtcState.buffer_id != 0 {
            drmModeSetCrtc(card.fd, crtcState.crtc_id, crtcState.buffer_id, crtcState.x, crtcState.y, &connectorID, 1, &crtcState.mode)
        } else {
            drmModeSetCrtc(card.fd, crtcState.crtc_id, 0, 0, 0, nil, 0, nil)
        }
    }

    static func connectorName(type: UInt32, index: UInt32) -> String {
        let typeName = drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "Unknown\(type)"
        return "\(typeName)-\(index)"
    }
}

extension DRMDisplay {
    /// Opens a display, runs `body` with it, and restores the previous CRTC
    /// however `body` ends (tools and tests; the app keeps its display for the loop).
    public static func withDisplay<T>(_ configuration: Configuration = Configuration(), _ body: (DRMDisplay) throws -> T) throws -> T {
        let display = try DRMDisplay(configuration: configuration)
        defer { display.restore() }
        return try body(display)
    }
}
