import CDRM

/// A KMS CRTC object id (a scanout engine).
public struct CRTCID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// A KMS connector object id (an HDMI port, a DSI panel...).
public struct ConnectorID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// A KMS encoder object id.
public struct EncoderID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let none = EncoderID(rawValue: 0)
}

/// A KMS framebuffer object id (what a CRTC scans out).
public struct FramebufferID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let none = FramebufferID(rawValue: 0)
}

/// A GEM buffer handle, local to one open card.
public struct BufferHandle: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// A requested display mode, written `WxH` or `WxH@Hz` in the configuration.
public struct ModeRequest: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Vertical refresh in Hz; nil takes the first matching mode (the connector lists the best first).
    public var refresh: Int?

    public init(width: Int, height: Int, refresh: Int? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    /// Parses "1280x800" or "1280x800@60".
    public init?(_ text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let hz = Int(parts[1]), hz > 0 else { return nil }
            refresh = hz
        }
        self.init(width: w, height: h, refresh: refresh)
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}

/// A connector's mode as the kernel describes it, with the pieces Teller needs.
struct ConnectorMode {
    var info: drmModeModeInfo
    var width: Int { Int(info.hdisplay) }
    var height: Int { Int(info.vdisplay) }
    var refresh: Int { Int(info.vrefresh) }
    var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }
    var description: String { "\(width)x\(height)@\(refresh)" }

    func matches(_ request: ModeRequest) -> Bool {
        width == request.width && height == request.height && (request.refresh.map { $0 == refresh } ?? true)
    }

    /// Preferred mode first, then the kernel's order; or the first mode matching `request`.
    static func choose(from modes: [ConnectorMode], request: ModeRequest?) -> ConnectorMode? {
        if let request { return modes.first { $0.matches(request) } }
        return modes.first(where: \.isPreferred) ?? modes.first
    }
}
