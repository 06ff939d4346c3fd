import SystemCalls
import Glibc

/// An open device node, closed when the last of its users lets go.
///
/// A class around the ``FileDescriptor`` because the descriptor has more
/// than one user that must keep it open: a DRM card's display and each of
/// its dumb buffers, which destroy their buffer on the card in their own
/// `deinit`. Not thread-safe; owned by one display or input device.
final class DeviceFile {
    let path: String
    let descriptor: FileDescriptor

    init(path: String, flags: Int32) throws(SystemCallError) {
        self.path = path
        descriptor = try FileDescriptor.open(path, flags)
    }

    /// The descriptor's number, lent to libdrm, libevdev and the event loop.
    var fd: Int32 { descriptor.rawValue }
}
