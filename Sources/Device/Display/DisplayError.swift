import SystemCalls

/// Why a display could not be opened or used, with the device path and errno.
public struct DisplayError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// No /dev/dri/card* (or the configured card / fbdev node does not exist).
        case noDevice
        /// The node exists but this user may not open it.
        case permissionDenied
        /// The card has no connector with a monitor or panel attached.
        case noConnectedConnector
        /// The configured `WxH@Hz` is not offered by the connector.
        case modeNotAvailable(requested: String, available: [String])
        /// Another DRM master (a compositor, another Teller) holds the display.
        case cannotBecomeMaster
        /// No CRTC can drive the connector.
        case noCRTC
        /// The framebuffer's pixel format is neither XRGB8888 nor RGB565.
        case unsupportedPixelFormat(String)
        /// A page flip did not complete in time (waitForFrameReady only).
        case flipTimedOut
        /// Any other kernel call that failed.
        case system(String)
    }

    public var kind: Kind
    public var path: String
    public var errno: Errno?

    public init(kind: Kind, path: String, errno: Errno?) {
        self.kind = kind
        self.path = path
        self.errno = errno
    }

    public var description: String {
        let reason = errno.map { " (\($0), errno \($0.rawValue))" } ?? ""
        switch kind {
        case .noDevice:
            return "\(path): no display device\(reason); is the DRM driver loaded (lsmod | grep drm) and is this a KMS-capable board?"
        case .permissionDenied:
            return "\(path): permission denied\(reason); add the Teller service user to the 'video' group (usermod -aG video <user>) and restart the service"
        case .noConnectedConnector:
            return "\(path): no connected display; check the panel or HDMI cable (see /sys/class/drm/*/status)"
        case .modeNotAvailable(let requested, let available):
            return "\(path): mode \(requested) is not offered; available: \(available.joined(separator: ", "))"
        case .cannotBecomeMaster:
            return "\(path): cannot become DRM master\(reason); another compositor or display program holds the screen (stop it, e.g. systemctl stop display-manager)"
        case .noCRTC:
            return "\(path): no CRTC can drive the connected output"
        case .unsupportedPixelFormat(let format):
            return "\(path): unsupported framebuffer format \(format); need 32 bpp XRGB8888 or 16 bpp RGB565"
        case .flipTimedOut:
            return "\(path): page flip did not complete in time"
        case .system(let operation):
            return "\(path): \(operation) failed\(reason)"
        }
    }

    /// Maps an open(2) failure onto the kinds a technician can act on.
    static func opening(_ path: String, _ errno: Errno) -> DisplayError {
        switch errno {
        case .noSuchFile, .noDevice: DisplayError(kind: .noDevice, path: path, errno: errno)
        case .permissionDenied, .notPermitted: DisplayError(kind: .permissionDenied, path: path, errno: errno)
        default: DisplayError(kind: .system("open"), path: path, errno: errno)
        }
    }
}
