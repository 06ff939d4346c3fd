import SystemCalls
import CDRM
import Glibc
import Graphics

/// The legacy fbdev framebuffer (/dev/fbN), for boards without KMS.
///
/// Supports 32 bpp XRGB8888 and 16 bpp RGB565. When the virtual height
/// holds two screens it double-buffers by panning (FBIOPAN_DISPLAY);
/// otherwise the application draws into memory and ``present(damage:)``
/// copies the damage into the single visible buffer. Pans complete at
/// once (fbdev has no completion event). Not thread-safe.
public final class FramebufferDisplay: Display {
    public let name: String
    public let transform: DisplayTransform
    public let isDoubleBuffered: Bool
    public let bitsPerPixel: Int
    public private(set) var lastPresentedAt: MonotonicInstant?
    private let file: DeviceFile
    private let memory: UnsafeMutableRawPointer
    private let length: Int
    private var variable: fb_var_screeninfo
    private let chain: SwapChain
    private let pageHeight: Int

    /// - Parameters:
    ///   - path: the node, /dev/fb0 unless configured.
    ///   - rotation: how the logical image is turned on the panel.
    /// - Throws: ``DisplayError`` for a missing node, permissions (the
    ///   `video` group) and pixel formats other than XRGB8888 and RGB565.
    public init(path: String = "/dev/fb0", rotation: Rotation = .degrees0) throws(DisplayError) {
        do { file = try DeviceFile(path: path, flags: O_RDWR) }
        catch { throw DisplayError.opening(path, error.errno) }
        var v = fb_var_screeninfo()
        var f = fb_fix_screeninfo()
        do {
            try file.descriptor.ioctl(UInt(FBIOGET_VSCREENINFO), &v)
            try file.descriptor.ioctl(UInt(FBIOGET_FSCREENINFO), &f)
        } catch {
            throw DisplayError(kind: error.errno == .notATerminalOrDevice ? .noDevice : .system("FBIOGET_*SCREENINFO"), path: path, errno: error.errno)
        }
        let format: ScanoutFormat
        switch (v.bits_per_pixel, v.red.offset, v.green.offset, v.blue.offset) {
        case (32, 16, 8, 0): format = .xrgb8888
        case (16, 11, 5, 0): format = .rgb565
        default:
            throw DisplayError(kind: .unsupportedPixelFormat("\(v.bits_per_pixel) bpp, red@\(v.red.offset) green@\(v.green.offset) blue@\(v.blue.offset)"), path: path, errno: nil)
        }
        let physical = Size(width: Int(v.xres), height: Int(v.yres))
        let stride = Int(f.line_length)
        let pageBytes = stride * physical.height
        length = Int(f.smem_len)
        do { memory = try file.descriptor.mapShared(length: length, offset: 0) }
        catch { throw DisplayError(kind: .system("mmap of \(length) bytes"), path: path, errno: error.errno) }

        if Int(v.yres_virtual) < 2 * physical.height && length >= 2 * pageBytes {
            // The memory holds two screens but the driver shows one: ask for a taller virtual screen.
            var taller = v
            taller.yres_virtual = v.yres * 2
            if (try? file.descriptor.ioctl(UInt(FBIOPUT_VSCREENINFO), &taller)) != nil {
                _ = try? file.descriptor.ioctl(UInt(FBIOGET_VSCREENINFO), &v)
            }
        }
        isDoubleBuffered = Int(v.yres_virtual) >= 2 * physical.height && length >= 2 * pageBytes
        let pages = isDoubleBuffered ? 2 : 1
        let base = memory
        let buffers = (0..<pages).map { page in
            ScanoutBuffer(base: base + page * pageBytes, strideBytes: stride, size: physical, format: format)
        }
        pageHeight = physical.height
        variable = v
        bitsPerPixel = Int(v.bits_per_pixel)
        transform = DisplayTransform(rotation: rotation, physicalSize: physical)
        let shownPage = isDoubleBuffered && Int(v.yoffset) >= physical.height ? 1 : 0
        chain = SwapChain(transform: transform, buffers: buffers, owner: nil, firstBack: isDoubleBuffered ? 1 - shownPage : 0)
        name = "fbdev \(path) \(physical.width)x\(physical.height) \(v.bits_per_pixel)bpp \(isDoubleBuffered ? "pan double-buffered" : "single buffer") (virtual \(v.xres_virtual)x\(v.yres_virtual), \(length) bytes) rotation \(rotation.rawValue)"
    }

    deinit {
        Syscall.unmap(memory, length: length)
    }

    public var size: Size { transform.logicalSize }
    public var backBuffer: Surface { chain.backBuffer }
    public var staleRegion: Rect { chain.staleRegion }
    public var isReadyForFrame: Bool { true }
    public var readableDescriptor: Int32? { nil }

    public func present(damage: Rect) throws(DisplayError) {
        let index = chain.prepare(damage: damage)
        if isDoubleBuffered {
            variable.yoffset = UInt32(index * pageHeight)
            variable.xoffset = 0
            do { try file.descriptor.ioctl(UInt(FBIOPAN_DISPLAY), &variable) }
            catch { throw DisplayError(kind: .system("FBIOPAN_DISPLAY"), path: file.path, errno: error.errno) }
        }
        chain.advance()
        // fbdev reports no completion: the frame counts as up when the pan (or the copy) returned.
        lastPresentedAt = .now()
    }

    public func handleReadable() throws(DisplayError) {}
}
