import SystemCalls
import CDRM
import Glibc
import Graphics

/// A CPU-drawable scanout buffer: a DRM dumb buffer, registered as an
/// XRGB8888 framebuffer and mapped into memory.
///
/// Releases the mapping, the framebuffer and the buffer in `deinit`. Not thread-safe.
final class DumbBuffer {
    let card: DeviceFile
    let handle: BufferHandle
    let framebuffer: FramebufferID
    let size: Size
    let strideBytes: Int
    let length: Int
    let memory: UnsafeMutableRawPointer

    init(card: DeviceFile, size: Size) throws(DisplayError) {
        self.card = card
        self.size = size
        var create = drm_mode_create_dumb()
        create.width = UInt32(size.width)
        create.height = UInt32(size.height)
        create.bpp = 32
        do { try card.descriptor.ioctl(cdrm_ioctl_mode_create_dumb(), &create) }
        catch { throw DisplayError(kind: .system("DRM_IOCTL_MODE_CREATE_DUMB \(size.width)x\(size.height)"), path: card.path, errno: error.errno) }
        handle = BufferHandle(rawValue: create.handle)
        strideBytes = Int(create.pitch)
        length = Int(create.size)

        var fb: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (create.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (create.pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { h4 in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { p4 in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { o4 in
                                drmModeAddFB2(card.fd, create.width, create.height, cdrm_format_xrgb8888(), h4, p4, o4, &fb, 0)
                            }
                        }
                    }
                }
            }
        }
        guard added == 0 else {
            DumbBuffer.destroy(card, create.handle)
            throw DisplayError(kind: .system("drmModeAddFB2 XRGB8888"), path: card.path, errno: Errno(rawValue: errno))
        }
        framebuffer = FramebufferID(rawValue: fb)

        var map = drm_mode_map_dumb()
        map.handle = create.handle
        do {
            try card.descriptor.ioctl(cdrm_ioctl_mode_map_dumb(), &map)
            memory = try card.descriptor.mapShared(length: Int(create.size), offset: Int(map.offset))
        } catch {
            drmModeRmFB(card.fd, fb)
            DumbBuffer.destroy(card, create.handle)
            throw DisplayError(kind: .system("mapping a dumb buffer"), path: card.path, errno: error.errno)
        }
    }

    deinit {
        Syscall.unmap(memory, length: length)
        drmModeRmFB(card.fd, framebuffer.rawValue)
        DumbBuffer.destroy(card, handle.rawValue)
    }

    var scanout: ScanoutBuffer {
        ScanoutBuffer(base: memory, strideBytes: strideBytes, size: size, format: .xrgb8888)
    }

    private static func destroy(_ card: DeviceFile, _ handle: UInt32) {
        var destroy = drm_mode_destroy_dumb(handle: handle)
        // Failing to free a buffer at teardown leaves nothing to act on; the kernel frees it on close.
        try? card.descriptor.ioctl(cdrm_ioctl_mode_destroy_dumb(), &destroy)
    }
}
