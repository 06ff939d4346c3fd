import Graphics

/// Which display to open, from the terminal's configuration.
public enum DisplayChoice: Sendable {
    /// DRM/KMS if a card has a connected output, else /dev/fb0.
    case automatic(DRMDisplay.Configuration)
    case drm(DRMDisplay.Configuration)
    case framebuffer(path: String, rotation: Rotation)
    case offscreen(physicalSize: Graphics.Size, rotation: Rotation)
}

/// Opens the best display for `choice`.
///
/// `.automatic` tries DRM first; when that fails for lack of a card or
/// output it falls back to fbdev, and when fbdev fails too it throws the DRM
/// error (the more useful one to a technician). Permission and DRM-master
/// errors are thrown at once: falling back would hide a fixable setup problem.
public func openDisplay(_ choice: DisplayChoice) throws(DisplayError) -> any Display {
    switch choice {
    case .drm(let configuration):
        return try DRMDisplay(configuration: configuration)
    case .framebuffer(let path, let rotation):
        return try FramebufferDisplay(path: path, rotation: rotation)
    case .offscreen(let size, let rotation):
        return OffscreenDisplay(physicalSize: size, rotation: rotation)
    case .automatic(let configuration):
        do {
            return try DRMDisplay(configuration: configuration)
        } catch {
            switch error.kind {
            case .noDevice, .noConnectedConnector, .noCRTC:
                if let fb = try? FramebufferDisplay(path: "/dev/fb0", rotation: configuration.rotation) { return fb }
                throw error
            default:
                throw error
            }
        }
    }
}
